import { describe, expect, it } from "vitest";
import { foreignEncoding } from "../../src/ingest/textEncoding.js";

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
