import { describe, expect, it } from "vitest";
import { withDuckDb } from "../../src/ingest/duckdb.js";
import { readColumns } from "../../src/ingest/readColumns.js";

// readColumns reads DuckDB's vectors directly: inline (≤ 12 bytes) and pointer strings, UTF-8,
// NULLs in either kind, and results spanning many 2,048-row chunks.
describe("readColumns", () => {
  const ids = [
    "a",
    "",
    "exactly12byt",
    "thirteen-byte",
    "a-document-id-much-longer-than-twelve-bytes",
    "café",
    "文書-第一",
    "emoji-😀-id",
    "tab\tand\nnewline",
  ];

  it("returns strings and doubles exactly as DuckDB holds them, NULL as null and NaN", async () => {
    const values = ids.map((id, i) => `(${i}, '${id.replaceAll("'", "''")}', ${i + 0.5})`);
    const [order, text, number] = await withDuckDb((connection) =>
      readColumns(
        connection,
        `SELECT i::DOUBLE, CASE WHEN i = 3 THEN NULL ELSE t END, CASE WHEN i = 2 THEN NULL ELSE x::DOUBLE END
         FROM (VALUES ${values.join(", ")}) v(i, t, x) ORDER BY i`,
        ["number", "string", "number"],
      ),
    );
    expect(Array.from(order as Float64Array)).toEqual(ids.map((_, i) => i));
    expect(text).toEqual(ids.map((id, i) => (i === 3 ? null : id)));
    expect(Array.from(number as Float64Array)).toEqual(
      ids.map((_, i) => (i === 2 ? Number.NaN : i + 0.5)),
    );
  });

  it("refuses a column of another type than the one asked for", async () => {
    await expect(
      withDuckDb((connection) => readColumns(connection, "SELECT 1::INTEGER", ["number"])),
    ).rejects.toThrow(/cast it to DOUBLE/);
  });

  it("reads a large result chunk by chunk, ASCII or not", async () => {
    for (const prefix of ["doc-", "dóc-"]) {
      const [text, number] = await withDuckDb((connection) =>
        readColumns(
          connection,
          `SELECT CASE WHEN i % 1000 = 7 THEN NULL ELSE '${prefix}' || i END, i * 0.25::DOUBLE
           FROM range(100000) r(i) ORDER BY i`,
          ["string", "number"],
        ),
      );
      const strings = text as (string | null)[];
      expect(strings.length).toBe(100_000);
      for (const i of [0, 7, 2047, 2048, 50_007, 99_999]) {
        expect(strings[i]).toBe(i % 1000 === 7 ? null : `${prefix}${i}`);
        expect((number as Float64Array)[i]).toBe(i * 0.25);
      }
    }
  });
});
