import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { duringScan } from "../../src/ingest/scanGate.js";
import { prestartSha256, sha256File } from "../../src/ingest/sha256File.js";
import { ROOT, scratchDir } from "../cli/runCli.js";
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

  it("gives a digest started early (prestartSha256, by any spelling of the path) once asked", async () => {
    // 20 MiB, all kept for after the scan: the prestarted worker waits at the gate.
    const path = join(dir, "early.bin");
    writeFileSync(path, Buffer.alloc(20 * 2 ** 20, 3));
    let release = () => {};
    const scan = duringScan(() => new Promise<void>((resolve) => (release = resolve)));
    prestartSha256(relative(process.cwd(), path));
    const hashing = sha256File(path);
    release();
    await scan;
    expect(await hashing).toBe(reference(path));
    // Taken once: asked again, the file is hashed again.
    expect(await sha256File(path)).toBe(reference(path));
  });

  it("a digest started early and never asked for does not keep the process alive", () => {
    // The child closes the gate for good, so its worker would wait for ever: the child must
    // still end, at once, when its script does.
    const path = join(dir, "never.bin");
    writeFileSync(path, Buffer.alloc(20 * 2 ** 20, 5));
    const dist = (m: string) => JSON.stringify(join(ROOT, "dist/ingest", m));
    const script = `
      const { duringScan } = await import(${dist("scanGate.js")});
      const { prestartSha256 } = await import(${dist("sha256File.js")});
      duringScan(() => new Promise(() => {}));
      prestartSha256(${JSON.stringify(path)});
      console.log("started");`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(child.error).toBeUndefined();
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("started\n");
  });

  it("leaves small files, directories and missing paths to sha256File", async () => {
    const small = join(dir, "small-early.csv");
    writeFileSync(small, "doc,hit\na,1\n");
    prestartSha256(small);
    prestartSha256(dir);
    prestartSha256(join(dir, "missing.csv"));
    expect(await sha256File(small)).toBe(reference(small));
    await expect(sha256File(join(dir, "missing.csv"), "missing.csv")).rejects.toThrow(
      "missing.csv: cannot read it (no such file)",
    );
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
