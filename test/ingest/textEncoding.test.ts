import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstNonUtf8Line, foreignEncoding } from "../../src/ingest/textEncoding.js";
import { scratchDir } from "../cli/runCli.js";

const TEXT = "doc,query,hit\ncafé,q1,1\nnaïve,q2,0\n";
const le = Buffer.from(TEXT, "utf16le");
const be = Buffer.from(le).swap16();
const mark = (bytes: readonly number[], body: Buffer) => Buffer.concat([Buffer.from(bytes), body]);

describe("foreignEncoding: what the first bytes show, and that it is what they are", () => {
  it.each([
    ["UTF-16 little-endian with its mark", mark([0xff, 0xfe], le), "UTF-16", "utf-16le"],
    ["UTF-16 big-endian with its mark", mark([0xfe, 0xff], be), "UTF-16", "utf-16be"],
    ["UTF-16 little-endian, no mark", le, "UTF-16LE", "utf-16le"],
    ["UTF-16 big-endian, no mark", be, "UTF-16BE", "utf-16be"],
  ])("%s is named %s, and decodes to the text so", (_, bytes, iconv, decoder) => {
    const found = foreignEncoding(bytes);
    expect(found?.iconv).toBe(iconv);
    // iconv's UTF-16 reads the mark and drops it; TextDecoder does the same.
    expect(new TextDecoder(decoder).decode(bytes)).toBe(TEXT);
  });

  it("names UTF-32 by its mark, not as UTF-16 (whose mark starts UTF-32 LE's)", () => {
    const utf32le = Buffer.alloc(4 * (TEXT.length + 1));
    utf32le.writeUInt32LE(0xfeff, 0);
    [...TEXT].forEach((c, i) => {
      utf32le.writeUInt32LE(c.codePointAt(0) as number, 4 * (i + 1));
    });
    expect(foreignEncoding(utf32le)?.described).toBe(
      "UTF-32 (little-endian, with a byte-order mark)",
    );
  });

  it.each([
    ["UTF-8", Buffer.from(TEXT, "utf8")],
    ["UTF-8 with its mark", mark([0xef, 0xbb, 0xbf], Buffer.from(TEXT, "utf8"))],
    ["Latin-1 (left to DuckDB, which names the line)", Buffer.from(TEXT, "latin1")],
    ["one byte", Buffer.from("a")],
  ])("%s is not refused here", (_, bytes) => {
    expect(foreignEncoding(bytes)).toBeNull();
  });
});

describe("firstNonUtf8Line: the line of the first bytes UTF-8 does not allow", () => {
  const dir = scratchDir();
  const lineOf = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return firstNonUtf8Line(path);
  };
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `naïve,q${i},€,😀\n`).join("");

  it("is null for UTF-8 with 2-, 3- and 4-byte characters on every line", async () => {
    expect(await lineOf("utf8.csv", Buffer.from(lines(20_000), "utf8"))).toBeNull();
  });

  it("names the line of a Latin-1 é, however far (chunks of 64 KiB are crossed)", async () => {
    const before = Buffer.from(lines(20_000), "utf8");
    const text = Buffer.concat([before, Buffer.from("café,x,1\n", "latin1")]);
    // Recomputed: the lines before it are the newlines in the UTF-8 part.
    const expected = before.toString("utf8").split("\n").length;
    expect(await lineOf("latin1.csv", text)).toBe(expected);
  });

  it("names the line of a sequence cut short by the end of the file", async () => {
    expect(await lineOf("cut.csv", Buffer.from([0x61, 0x0a, 0x62, 0xe2, 0x82]))).toBe(2);
  });
});
