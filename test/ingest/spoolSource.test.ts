import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { RagciError } from "../../src/core/errors.js";
import { spoolSource } from "../../src/ingest/spoolSource.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();
const CSV = "doc_id,query_id,hit5\na,1,1\nb,2,0\n";

function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  return path;
}

describe("spoolSource", () => {
  it("a regular file is read where it is, no copy", async () => {
    const path = join(dir, "plain.csv");
    writeFileSync(path, CSV);
    const source = await spoolSource(path);
    expect(source).toMatchObject({ path, displayName: path, notes: [] });
  });

  it("standard input is copied once; the copy's format is told from the content and noted", async () => {
    for (const [text, format] of [
      [CSV, "csv"],
      [CSV.replaceAll(",", "\t"), "tsv"],
      ['{"doc_id":"a","hit5":1}\n', "jsonl"],
    ] as const) {
      const source = await spoolSource("-", { stdin: Readable.from([text]) });
      try {
        expect(source.displayName).toBe("stdin");
        expect(extname(source.path)).toBe(`.${format}`);
        expect(readFileSync(source.path, "utf8")).toBe(text);
        expect(source.notes).toEqual([
          `stdin: read as ${format.toUpperCase()} (told from its content)`,
        ]);
      } finally {
        await source.cleanup();
      }
      expect(existsSync(source.path)).toBe(false);
    }
  });

  it("a named pipe with a writer is copied whole, its name kept", async () => {
    const path = fifo("results.csv");
    const writer = spawn("sh", ["-c", `sleep 0.2; printf '%s' "$0" > "$1"`, CSV, path]);
    const source = await spoolSource(path, { writerWaitMs: 5000 });
    try {
      expect(source.path.endsWith("/results.csv")).toBe(true);
      expect(readFileSync(source.path, "utf8")).toBe(CSV);
      expect(source.notes).toEqual([]);
    } finally {
      await source.cleanup();
      writer.kill();
    }
  });

  it("a named pipe without a writer is refused after the wait, in one line", async () => {
    const path = fifo("lonely");
    const start = Date.now();
    const error = await spoolSource(path, { writerWaitMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RagciError);
    expect((error as Error).message).toBe(
      `${path}: FIFO has no writer after 0.3 s; start the program that writes to it first (or give a file)`,
    );
    expect(Date.now() - start).toBeLessThan(5000);
  });

  it("a compressed stream keeps its compression in the copy's name, the format named by --format", async () => {
    const packed = gzipSync(CSV);
    const refused = await spoolSource("-", { stdin: Readable.from([packed]) }).catch(
      (e: unknown) => e,
    );
    expect((refused as Error).message).toBe(
      "stdin: is gzip-compressed; name the format of what it holds with `format` csv|tsv|jsonl",
    );
    const source = await spoolSource("-", { stdin: Readable.from([packed]), format: "csv" });
    try {
      expect(source.path.endsWith("/stdin.csv.gz")).toBe(true);
      expect(gunzipSync(readFileSync(source.path)).toString()).toBe(CSV);
    } finally {
      await source.cleanup();
    }
  });

  it("content that tells no format asks for --format", async () => {
    const error = await spoolSource("-", { stdin: Readable.from(["doc hit\na 1\n"]) }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(
      "stdin: cannot tell the format from its content; name it with `format` csv|tsv|jsonl|parquet",
    );
  });
});
