import { describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import { DIALECTS, dialect } from "../../../src/ingest/sql/dialects.js";
import { groupedSumsSql, type SumColumn, sumSql } from "../../../src/ingest/sql/perDocumentSums.js";
import type { SumMode } from "../../../src/ingest/summation.js";
import { dialectOnDuckDb } from "../../support/dialectsOnDuckDb.js";

/**
 * Rows (doc, q, v) whose sums are exact in every type on the way (at most 3 decimals, squares too: the
 * postgres dialect's NUMERIC is DuckDB's DECIMAL(18, 3) here), with a NULL value, a 0/1
 * document, a whole-number document and one of fractions.
 */
const ROWS: readonly (readonly [string, string, number | null])[] = [
  ["a", "q1", 0],
  ["a", "q2", 1],
  ["a", "q3", 1],
  ["b", "q4", 2],
  ["b", "q5", -3],
  ["b", "q6", null],
  ["c", "q7", 0.5],
  ["c", "q8", 1.5],
  ["c", "q9", 4],
];

const COLUMNS: readonly SumColumn[] = [
  "s",
  "ss",
  "min",
  "max",
  "binary",
  "whole",
  "present",
  "odd",
  "offZeroOne",
];

/** Each column recomputed from ROWS for one document (NULL values left out, as SQL does). */
function expected(doc: string): Record<string, number | null> {
  const all = ROWS.filter((r) => r[0] === doc).map((r) => r[2]);
  const xs = all.filter((x): x is number => x !== null);
  const sum = (f: (x: number) => number) => xs.reduce((t, x) => t + f(x), 0);
  return {
    n: all.length,
    s: sum((x) => x),
    ss: sum((x) => x * x),
    min: Math.min(...xs),
    max: Math.max(...xs),
    binary: xs.every((x) => x === 0 || x === 1) ? 1 : 0,
    whole: xs.every((x) => Number.isInteger(x)) ? 1 : 0,
    present: xs.length,
    odd: xs.filter((x) => x !== 0 && x !== 1).length,
    offZeroOne: sum((x) => Math.abs(x * (x - 1))),
  };
}

const values = ROWS.map(
  ([doc, q, v]) => `('${doc}', '${q}', ${v === null ? "NULL" : `CAST(${v} AS DOUBLE)`})`,
).join(", ");

describe("groupedSumsSql: one statement of per-document sums for every dialect", () => {
  for (const name of DIALECTS) {
    it(`${name}: every aggregate, run on DuckDB, is the recomputation from the rows`, async () => {
      const d = dialect(name);
      const sql = groupedSumsSql(d, {
        from: `(SELECT * FROM (VALUES ${values}) AS t(doc, q, v0)) AS rows`,
        keys: [["doc", "doc"]],
        count: "n",
        metrics: [{ x: "v0", mode: "decimal", columns: COLUMNS.map((c) => [c, c] as const) }],
        ordered: true,
        doubles: true,
      });
      const rows = await withDuckDb(async (c) => {
        const adapt = await dialectOnDuckDb(c, name);
        return queryRows(c, adapt(sql));
      });
      expect(rows.map((r) => r.doc)).toEqual(["a", "b", "c"]);
      for (const row of rows) {
        const { doc, ...got } = row;
        expect(
          Object.fromEntries(
            Object.entries(got).map(([k, v]) => [k, v === null ? null : Number(v)]),
          ),
        ).toEqual(expected(String(doc)));
      }
    });
  }

  it("sums under each mode: integer and decimal exact, double in the order given", async () => {
    const d = dialect("duckdb");
    // 0.1 + 0.2 + 0.3: 0.6 exactly in DECIMAL, 0.6000000000000001 in doubles in this order
    // and 0.6 in the order 0.3, 0.2, 0.1 (q descending).
    const data = "('a', 'q1', 0.1), ('a', 'q2', 0.2), ('a', 'q3', 0.3)";
    const sum = async (mode: SumMode, order?: string) =>
      withDuckDb(async (c) => {
        const sql = groupedSumsSql(d, {
          from: `(SELECT doc, q, CAST(v AS DOUBLE) AS v0 FROM (VALUES ${data}) AS t(doc, q, v))`,
          keys: [["doc", "doc"]],
          count: null,
          metrics: [{ x: "v0", mode, columns: [["s", "s"]], ...(order ? { order } : {}) }],
          ordered: false,
        });
        return (await queryRows(c, sql))[0]?.s;
      });
    expect(await sum("decimal")).toBe(0.6);
    expect(await sum("double", "q")).toBe(0.1 + 0.2 + 0.3);
    expect(await sum("double", "q DESC")).toBe(0.3 + 0.2 + 0.1);
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
  });

  it("a decimal sum leaves out values that are not finite (the row checks report them)", async () => {
    for (const name of DIALECTS) {
      const d = dialect(name);
      expect(sumSql(d, { x: "v0", mode: "decimal" }, "s")).toContain(d.finite("v0"));
      expect(sumSql(d, { x: "v0", mode: "decimal" }, "ss")).toContain(d.finite("v0"));
    }
  });

  it("refuses an ordered double sum outside DuckDB, which alone adds in a given order", () => {
    expect(() => sumSql(dialect("postgres"), { x: "v0", mode: "double", order: "q" }, "s")).toThrow(
      /DuckDB's only/,
    );
  });
});
