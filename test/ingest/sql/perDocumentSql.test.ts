import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import {
  readAggregates,
  readPairedAggregates,
  readPairedResults,
  readResults,
} from "../../../src/ingest/index.js";
import { sqlString } from "../../../src/ingest/inputFormat.js";
import { DIALECTS, dialect } from "../../../src/ingest/sql/dialects.js";
import { withPerDocumentFile } from "../../../src/ingest/sql/perDocumentRows.js";
import { type PerDocumentSqlSpec, perDocumentSql } from "../../../src/ingest/sql/perDocumentSql.js";
import { EXAMPLE, scratchDir } from "../../cli/runCli.js";
import { dialectOnDuckDb } from "../../support/dialectsOnDuckDb.js";
import { EXAMPLE_PAIRED_SPEC, EXAMPLE_SPEC, T_SPEC } from "../../support/exampleSql.js";
import { plainStats as plain } from "../../support/plainStats.js";

const dir = scratchDir();

const single = EXAMPLE_SPEC;
const paired = EXAMPLE_PAIRED_SPEC;

/** The bundled example as a DuckDB table, typed as DuckDB reads the CSV. */
async function exampleTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(EXAMPLE)})`);
}

/** Runs `sql` and reads its rows back as an --aggregated table, system × metric → stats. */
async function perDocument(connection: DuckDBConnection, sql: string) {
  const rows = await queryRows(connection, sql);
  const table = await withPerDocumentFile(rows, (file) =>
    readAggregates({ file, format: "jsonl", system: "system" }),
  );
  return {
    rows: rows.length,
    groups: table.groups.map((g) => ({
      system: g.system,
      metric: g.metric,
      stats: plain(g.stats),
    })),
  };
}

// The single-table statement sums with perDocumentSums.ts and checks rows by rowRules.ts, as
// the file path does: those are tested once (perDocumentSums.test.ts, inMemoryRowsSums.test.ts)
// instead of comparing the paths. Paired files and databases pair rows with one builder too
// (pairedQueries.ts, pairedQueries.test.ts); this checks the statement around it.
describe("perDocumentSql on DuckDB over the bundled example", () => {
  it("the paired duckdb SQL gives compare's per-document sums (each system and tfidf − bm25)", async () => {
    const pairs = () => [["bm25", "tfidf"]] as const;
    const file = await readPairedResults({
      inputs: [{ path: EXAMPLE, displayName: "example" }],
      system: "system",
      query: "query_id",
      metrics: ["hit5", "rr"],
      pairs,
    });
    const rows = await withDuckDb(async (c) => {
      await exampleTable(c);
      return queryRows(c, perDocumentSql(dialect("duckdb"), paired));
    });
    const fromSql = await withPerDocumentFile(rows, (path) =>
      readPairedAggregates({
        file: path,
        displayName: "sql",
        format: "jsonl",
        doc: null,
        system: null,
        onlySystems: null,
        metrics: ["hit5", "rr"],
        documentLabel: null,
        pairs,
      }),
    );
    const bySystem = (t: typeof file) =>
      t.perSystem
        .map((p) => [p.system, p.metric, plain(p.stats)] as const)
        .sort((x, y) => `${x[0]}/${x[1]}`.localeCompare(`${y[0]}/${y[1]}`));
    expect(bySystem(fromSql)).toEqual(bySystem(file));
    // The differences' sums; whether they are "0/1" is each reader's own reading of them.
    const sums = (t: typeof file) =>
      t.differences.map((d) => {
        const { binary, ...rest } = plain(d.stats);
        return [d.a, d.b, d.metric, rest];
      });
    expect(fromSql.differences).toHaveLength(2);
    expect(sums(fromSql)).toEqual(sums(file));
  });

  it("a --sql source (the user's SELECT) gives the same table as --table", async () => {
    await withDuckDb(async (c) => {
      await exampleTable(c);
      const byTable = await perDocument(c, perDocumentSql(dialect("duckdb"), single));
      const bySql = await perDocument(
        c,
        perDocumentSql(dialect("duckdb"), {
          ...single,
          source: { sql: "SELECT doc_id, system, hit5, rr FROM results;" },
        }),
      );
      expect(bySql).toEqual(byTable);
    });
  });
});

describe("perDocumentSql's checks fail the statement with ragci's message", () => {
  const cases: {
    name: string;
    rows: string;
    spec: Partial<PerDocumentSqlSpec>;
    message: RegExp;
  }[] = [
    {
      name: "a NULL metric",
      rows: "('a', 's', 'q1', 1.0), ('a', 's', 'q2', NULL), ('b', 's', 'q3', 0.0)",
      spec: {},
      message: /ragci: 1 rows have hit NULL, NaN or infinite; every result needs a finite value/,
    },
    {
      name: "a NaN metric",
      rows: "('a', 's', 'q1', 'NaN'::DOUBLE), ('b', 's', 'q3', 0.0)",
      spec: {},
      message: /ragci: 1 rows have hit NULL, NaN or infinite/,
    },
    {
      name: "an empty document id",
      rows: "('a', 's', 'q1', 1.0), ('  ', 's', 'q2', 1.0), (NULL, 's', 'q3', 0.0)",
      spec: {},
      message: /ragci: 2 rows have no doc \(NULL or empty\); every row needs a document id/,
    },
    {
      name: "a query given twice for a system",
      rows: "('a', 'A', 'q1', 1.0), ('a', 'A', 'q1', 1.0), ('a', 'B', 'q1', 0.0), ('b', 'A', 'q2', 0.0), ('b', 'B', 'q2', 0.0)",
      spec: { query: "q", systems: ["A", "B"], pairs: [["A", "B"]] },
      message: /ragci: 1 queries appear more than once for a system in q/,
    },
    {
      name: "a query under two documents",
      rows: "('a', 'A', 'q1', 1.0), ('b', 'B', 'q1', 0.0), ('b', 'A', 'q2', 0.0), ('b', 'B', 'q2', 0.0)",
      spec: { query: "q", systems: ["A", "B"], pairs: [["A", "B"]] },
      message: /ragci: 1 queries are under two documents/,
    },
    {
      name: "a query of one system only",
      rows: "('a', 'A', 'q1', 1.0), ('a', 'B', 'q1', 0.0), ('b', 'A', 'q2', 0.0)",
      spec: { query: "q", systems: ["A", "B"], pairs: [["A", "B"]] },
      message: /ragci: 1 queries have a result for some of the systems \(A, B\) but not all/,
    },
  ];
  // In every dialect: a NaN or infinite value must reach the checks, not fail an exact sum's
  // cast first with the database's own words (it did, in all but duckdb's and postgres's SQL).
  for (const c of cases)
    for (const name of DIALECTS)
      it(`${c.name} (${name})`, async () => {
        await withDuckDb(async (connection) => {
          const adapt = await dialectOnDuckDb(connection, name);
          await connection.run(
            `CREATE TABLE t AS SELECT * FROM (VALUES ${c.rows}) AS v(doc, sys, q, hit)`,
          );
          const sql = adapt(perDocumentSql(dialect(name), { ...T_SPEC, ...c.spec }));
          await expect(queryRows(connection, sql)).rejects.toThrow(c.message);
        });
      });

  it("passes clean rows (the guard is NULL, nothing is filtered out)", async () => {
    await withDuckDb(async (connection) => {
      await connection.run(
        "CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1.0), ('a', 0.0), ('b', 1.0)) AS v(doc, hit)",
      );
      const rows = await queryRows(
        connection,
        perDocumentSql(dialect("duckdb"), {
          source: { table: "t" },
          doc: "doc",
          metrics: ["hit"],
          system: null,
          systems: null,
          query: null,
        }),
      );
      expect(rows).toEqual([
        { system: null, metric: "hit", doc: "a", n: 2, s: 1, ss: 1, min: 0, max: 1 },
        { system: null, metric: "hit", doc: "b", n: 1, s: 1, ss: 1, min: 1, max: 1 },
      ]);
    });
  });
});

describe("every dialect's SQL on DuckDB (test/support/dialectsOnDuckDb.ts: its names as macros and types)", () => {
  for (const name of DIALECTS) {
    it(`${name}: runs and gives the per-document table`, async () => {
      const file = await readResults({ file: EXAMPLE, metrics: ["hit5", "rr"], system: "system" });
      await withDuckDb(async (c) => {
        await exampleTable(c);
        const adapt = await dialectOnDuckDb(c, name);
        const sql = perDocumentSql(dialect(name), single);
        if (name === "postgres") {
          // DuckDB's NUMERIC is DECIMAL(18, 3), not PostgreSQL's exact numeric: it runs, with
          // the same documents, counts and 0/1 sums; the rr sums are only good to 3 decimals.
          const rows = await queryRows(c, adapt(sql));
          const fileRows = file.groups.flatMap((g) =>
            g.stats.ids.map((id, d) => [g.system, g.metric, id, g.stats.n[d], g.stats.s[d]]),
          );
          expect(rows.map((r) => [r.system, r.metric, r.doc, r.n])).toEqual(
            fileRows.map((r) => r.slice(0, 4)),
          );
          rows.forEach((r, i) => {
            const [, metric, , n, s] = fileRows[i] as [string, string, string, number, number];
            if (metric === "hit5") expect(r.s).toBe(s);
            else expect(Math.abs((r.s as number) - s)).toBeLessThan(5e-4 * n);
          });
          return;
        }
        const fromSql = await perDocument(c, adapt(sql));
        const expected = file.groups.map((g) => ({
          system: g.system,
          metric: g.metric,
          stats: plain(g.stats),
        }));
        expect(fromSql.groups).toEqual(expected);
      });
    });
  }

  it("casts ids and values to Nullable types in ClickHouse, which refuses a NULL cast to a plain type", () => {
    // DuckDB, which runs the statement above, casts NULL to any type: this is ClickHouse's rule
    // ("Cannot convert NULL value to non-Nullable type"), so a NULL id or value would stop the
    // statement with that error before the checks could report it.
    const sql = perDocumentSql(dialect("clickhouse"), { ...paired, label: "topic" });
    const count = (text: string) => sql.split(text).length - 1;
    expect(count("CAST(")).toBeGreaterThan(10);
    // Every CAST's type but the guard's (no alias is named Nullable).
    expect(count(" AS Nullable(")).toBe(count("CAST(") - 1);
    // The guard: ClickHouse 18.16 casts any text to Nullable(Int32) as NULL, which would pass.
    expect(sql).toMatch(
      /nullIf\(CAST\(coalesce\(CASE\n[\s\S]*?\n {2}END, '0'\) AS Int32\), 0\) AS ragci_failed/,
    );
  });

  it("refuses in ClickHouse a column named as one of the statement's own for another role", () => {
    // ClickHouse reads a name as an alias of the same SELECT before a column of the table.
    const on = (spec: Partial<PerDocumentSqlSpec>) => () =>
      perDocumentSql(dialect("clickhouse"), { ...T_SPEC, ...spec });
    expect(on({ metrics: ["q"] })).toThrow(
      /^the metric column q: ragci's clickhouse statement names a column of its own q, which clickhouse would read in place of yours; rename yours with `sql` "SELECT …, q AS q_in, …" and name q_in$/,
    );
    expect(on({ system: "doc", doc: "doc_id" })).toThrow(/^the system column doc: /);
    expect(on({ doc: "sys" })).toThrow(/^the document id column sys: /);
    expect(on({ metrics: ["hit", "v0"] })).toThrow(/^the metric column v0: /);
    expect(on({ label: "sys" })).toThrow(/^the label column sys: /);
    expect(on({ label: "x0_0" })).toThrow(/^the label column x0_0: /);
    expect(on({ metrics: ["lab"], label: "topic" })).toThrow(/^the metric column lab: /);
    // Each column under its own alias's name reads itself; lab is free without a label.
    expect(
      on({ doc: "doc", system: "sys", query: "q", metrics: ["v0"], label: "lab" }),
    ).not.toThrow();
    expect(on({ metrics: ["lab"] })).not.toThrow();
    // Other dialects scope an alias to the SELECT's output.
    for (const name of DIALECTS.filter((n) => n !== "clickhouse"))
      expect(() => perDocumentSql(dialect(name), { ...T_SPEC, metrics: ["q"] })).not.toThrow();
  });

  it("quotes names and strings as each dialect needs", () => {
    const name = 'we"ird`name';
    const value = "it's a \\ path";
    expect(dialect("postgres").identifier(name)).toBe('"we""ird`name"');
    expect(dialect("bigquery").identifier(name)).toBe('`we"ird\\`name`');
    expect(dialect("snowflake").identifier("doc_id")).toBe("doc_id");
    expect(dialect("snowflake").alias("doc")).toBe('"doc"');
    expect(dialect("postgres").string(value)).toBe("'it''s a \\ path'");
    expect(dialect("bigquery").string(value)).toBe("'it\\'s a \\\\ path'");
    expect(() => dialect("oracle")).toThrow(/`dialect` oracle: use one of duckdb, postgres/);
  });

  it("writes a value with quotes in it so that it reads back", async () => {
    const path = join(dir, "odd.csv");
    writeFileSync(path, 'doc,sys,hit\n"it\'s","a\'b",1\nx,"a\'b",0\n');
    const file = await readResults({ file: path, metrics: ["hit"], system: "sys" });
    await withDuckDb(async (c) => {
      await c.run(`CREATE TABLE "we'ird" AS SELECT * FROM read_csv(${sqlString(path)})`);
      const sql = perDocumentSql(dialect("duckdb"), {
        source: { table: "we'ird" },
        doc: "doc",
        metrics: ["hit"],
        system: "sys",
        systems: ["a'b"],
        query: null,
      });
      const fromSql = await perDocument(c, sql);
      expect(fromSql.groups).toEqual(
        file.groups.map((g) => ({ system: g.system, metric: g.metric, stats: plain(g.stats) })),
      );
    });
  });
});
