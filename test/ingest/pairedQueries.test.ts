import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../src/ingest/duckdb.js";
import { readPairedResults } from "../../src/ingest/index.js";
import { dialect } from "../../src/ingest/sql/dialects.js";
import { pairedQueriesSql } from "../../src/ingest/sql/pairedQueries.js";
import { droppedQueriesSql } from "../../src/ingest/sql/perDocumentSql.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();
const DUCKDB = dialect("duckdb");

/** A CSV `doc,query,system,hit` of hand-written rows (edge cases of pairing). */
function table(name: string, rows: readonly (readonly [string, string, string, number])[]) {
  const path = join(dir, name);
  writeFileSync(path, `doc,query,system,hit\n${rows.map((r) => r.join(",")).join("\n")}\n`);
  return path;
}

const read = (path: string, intersect = false) =>
  readPairedResults({
    inputs: [{ path, displayName: "t.csv" }],
    system: "system",
    query: "query",
    metrics: ["hit"],
    intersect,
    pairs: (systems) => systems.slice(1).map((b) => [systems[0] as string, b] as const),
  });

/** Rows with queries missing from some systems: A has q1–q4, B q1–q3 and q5, C q1, q2, q5. */
const GAPS = [
  ["d1", "q1", "A", 1],
  ["d1", "q1", "B", 0],
  ["d1", "q1", "C", 1],
  ["d1", "q2", "A", 0],
  ["d1", "q2", "B", 1],
  ["d1", "q2", "C", 1],
  ["d2", "q3", "A", 1],
  ["d2", "q3", "B", 1],
  ["d2", "q4", "A", 1],
  ["d2", "q5", "B", 0],
  ["d2", "q5", "C", 0],
] as const;

describe("pairing hand-written rows (the builder of pairedQueries.ts)", () => {
  it("matches the systems' rows on the query: one row per query, counts and values per system", async () => {
    const rows = await withDuckDb(async (c) => {
      await c.run(
        "CREATE TABLE r AS SELECT * FROM (VALUES ('d1', 'A', 'q1', 1.0), ('d1', 'B', 'q1', 0.5), ('d1', 'A', 'q2', 0.0), ('d2', 'B', 'q2', 1.0), ('d2', 'B', 'q3', 0.25), ('d2', 'B', 'q3', 0.75)) AS t(doc, sys, q, v0)",
      );
      return queryRows(
        c,
        `SELECT * FROM (${pairedQueriesSql(DUCKDB, { from: "r", systems: ["A", "B"], metrics: 1, label: false })}) ORDER BY q`,
      );
    });
    // Recomputed from the VALUES above: q2 is under d1 and d2, q3 twice for B and never for A.
    expect(rows.map((r) => [r.q, r.query_doc, Number(r.docs), Number(r.n0), Number(r.n1)])).toEqual(
      [
        ["q1", "d1", 1, 1, 1],
        ["q2", "d1", 2, 1, 1],
        ["q3", "d2", 1, 0, 2],
      ],
    );
    expect(rows.map((r) => [r.x0_0, r.x1_0])).toEqual([
      [1, 0.5],
      [0, 1],
      [null, 0.75],
    ]);
  });

  it("files refuse a query missing from a system, naming it and each system's count", async () => {
    await expect(read(table("gaps.csv", GAPS))).rejects.toThrow(
      "t.csv: query q3 has a result for A but not for every other system; A has 2 queries, B has 2 queries, C has 1 query missing from another system. Use `intersect` to keep the common queries",
    );
  });

  it("with intersect, files drop what the database statement counts as dropped", async () => {
    const path = table("gaps-kept.csv", GAPS);
    const paired = await read(path, true);
    // Recomputed: q1 and q2 are the only queries of all three systems.
    expect(paired.queries).toBe(2);
    expect(paired.dropped).toEqual({ A: 2, B: 2, C: 1 });
    const database = await withDuckDb(async (c) => {
      await c.run(`CREATE TABLE gaps AS SELECT * FROM read_csv('${path}', all_varchar = true)`);
      const spec = {
        source: { table: "gaps" },
        doc: "doc",
        metrics: ["hit"],
        system: "system",
        systems: ["A", "B", "C"],
        query: "query",
        pairs: [
          ["A", "B"],
          ["A", "C"],
        ] as const,
        intersect: true,
      };
      return (await queryRows(c, droppedQueriesSql(DUCKDB, spec)))[0];
    });
    expect([database?.dropped0, database?.dropped1, database?.dropped2].map(Number)).toEqual([
      2, 2, 1,
    ]);
    // d1's two kept queries: B − A = (0 − 1) + (1 − 0) = 0, C − A = (1 − 1) + (1 − 0) = 1.
    expect(paired.differences.map((d) => [d.b, [...d.stats.ids], [...d.stats.s]])).toEqual([
      ["B", ["d1"], [0]],
      ["C", ["d1"], [1]],
    ]);
  });

  it("files refuse no common query even with intersect", async () => {
    const path = table("disjoint.csv", [
      ["d1", "q1", "A", 1],
      ["d1", "q2", "B", 1],
    ]);
    await expect(read(path, true)).rejects.toThrow(
      "t.csv: no query has a result for every system (A, B); nothing to compare",
    );
  });

  it("files refuse repeated queries, naming the first by system then query, and how many", async () => {
    const path = table("repeated.csv", [
      ["d1", "q2", "B", 1],
      ["d1", "q2", "B", 0],
      ["d1", "q2", "A", 1],
      ["d1", "q9", "A", 1],
      ["d1", "q9", "A", 1],
      ["d1", "q9", "A", 0],
      ["d1", "q9", "B", 1],
    ]);
    await expect(read(path)).rejects.toThrow(
      "t.csv: query q9 appears 3 times for system A (2 duplicated queries in all); each query needs one result per system",
    );
  });

  it("files refuse queries under two documents, naming both and how many more", async () => {
    const path = table("split.csv", [
      ["d3", "q1", "A", 1],
      ["d1", "q1", "B", 1],
      ["d1", "q7", "A", 1],
      ["d2", "q7", "B", 1],
    ]);
    await expect(read(path)).rejects.toThrow(
      "t.csv: query q1 is under two documents (d1 and d3), as are 1 more queries; a query belongs to one document",
    );
  });
});
