import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "../../../src/core/aggregate/mergeDocumentStats.js";

/** Code-point order from first principles: compare the arrays of code points. */
function byCodePointArrays(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

// Characters on both sides of the surrogate range, where UTF-16 order and code-point order differ.
const awkward = [
  "a",
  "z",
  "é",
  "ｚ",
  "\uE000",
  "\uFFFD",
  "😀",
  "𝒜",
  "中",
  "\uD7FF",
  "🙂",
  "z😀",
  "zｚ",
];

describe("compareCodePoints", () => {
  it("orders by code point where JS's UTF-16 order does not (😀 U+1F600 after ｚ U+FF5A)", () => {
    expect("😀" < "ｚ").toBe(true); // UTF-16 code units: 0xD83D < 0xFF5A
    expect(compareCodePoints("😀", "ｚ")).toBe(1);
    expect(compareCodePoints("ｚ", "😀")).toBe(-1);
    expect(compareCodePoints("\uE000", "𝒜")).toBe(-1);
    expect(compareCodePoints("ab", "ab")).toBe(0);
    expect(compareCodePoints("ab", "abc")).toBe(-1);
  });

  it("agrees with code-point arrays on random strings (BMP, private use, astral)", () => {
    const char = fc.oneof(
      fc.constantFrom(...awkward),
      fc
        .integer({ min: 0x20, max: 0x10ffff })
        .filter((c) => c < 0xd800 || c > 0xdfff)
        .map((c) => String.fromCodePoint(c)),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 5 }), fc.array(char, { maxLength: 5 }), (x, y) => {
        const [a, b] = [x.join(""), y.join("")];
        expect(compareCodePoints(a, b)).toBe(byCodePointArrays(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it("sorts ids as DuckDB's ORDER BY does (the order the ingested tables are in)", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      const values = awkward.map((s) => `('${s.replaceAll("'", "''")}')`).join(", ");
      const reader = await connection.runAndReadAll(
        `SELECT id FROM (VALUES ${values}) t(id) ORDER BY id`,
      );
      const duckdb = reader.getRows().map((r) => r[0] as string);
      expect([...awkward].sort(compareCodePoints)).toEqual(duckdb);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
