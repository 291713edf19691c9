import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { duringScan } from "../../src/ingest/scanGate.js";
import { sha256File } from "../../src/ingest/sha256File.js";
import { scratchDir } from "../cli/runCli.js";
import { sha256File as reference } from "../support/sha256File.js";

const dir = scratchDir();

describe("sha256File", () => {
  it("hashes a small file here and a large one (≥ 16 MiB) on a worker, both as the bytes are", async () => {
    const small = join(dir, "small.csv");
    writeFileSync(small, "doc,hit\na,1\n");
    const large = join(dir, "large.bin");
    // 17 MiB plus an odd tail, so the last 1 MiB piece is partial.
    const bytes = Buffer.alloc(17 * 2 ** 20 + 12345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    writeFileSync(large, bytes);
    expect(await sha256File(small)).toBe(reference(small));
    expect(await sha256File(large)).toBe(reference(large));
  });

  it("keeps the last 32 MiB of a large file for after a scan, then finishes", async () => {
    // 20 MiB: all of it is within the part kept for after the scan.
    const path = join(dir, "kept.bin");
    writeFileSync(path, Buffer.alloc(20 * 2 ** 20, 7));
    let release = () => {};
    const scan = duringScan(() => new Promise<void>((resolve) => (release = resolve)));
    let digest: string | null = null;
    const hashing = sha256File(path).then((d) => {
      digest = d;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(digest).toBeNull();
    release();
    await scan;
    await hashing;
    expect(digest).toBe(reference(path));
  });

  it("names a missing file or a directory in one line", async () => {
    const sub = join(dir, "sub");
    mkdirSync(sub);
    await expect(sha256File(join(dir, "nope.csv"), "nope.csv")).rejects.toThrow(
      "nope.csv: cannot read it (no such file)",
    );
    await expect(sha256File(sub, "sub")).rejects.toThrow("sub: cannot read it (it is a directory)");
  });
});
