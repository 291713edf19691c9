import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../src/ingest/duckdb.js";
import { readAggregates, readResults } from "../../src/ingest/index.js";
import { sqlString } from "../../src/ingest/inputFormat.js";
import { withPerDocumentFile } from "../../src/ingest/sql/perDocumentRows.js";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { loadExampleTable, loadScoreTable } from "../postgres/exampleTable.js";
import { plainStats as plain } from "../support/plainStats.js";
import { EXAMPLE, ragci, scratchDir } from "./runCli.js";

const dir = scratchDir();

type Groups = { system: string | null; metric: string; stats: ReturnType<typeof plain> }[];

const groupsOf = (t: Awaited<ReturnType<typeof readResults>>): Groups =>
  t.groups.map((g) => ({ system: g.system, metric: g.metric, stats: plain(g.stats) }));

/** The printed statement of `ragci sql ARGS`. */
function printed(args: string[]): string {
  const r = ragci(["sql", ...args]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

/** Rows a database returned, read as an --aggregated table. */
async function asTable(rows: Record<string, unknown>[]): Promise<Groups> {
  return groupsOf(
    await withPerDocumentFile(rows, (file) =>
      readAggregates({ file, format: "jsonl", system: "system" }),
    ),
  );
}

/** Per-query rows with Unicode ids, ties, whole and fractional values and values near 10¹². */
const TRICKY = [
  "doc_id,query_id,system,score",
  "Ärzte-Übersicht,q1,a,0.5",
  "Ärzte-Übersicht,q2,a,0.5",
  "文書,q3,a,1099511627776",
  "文書,q4,a,2199023255552",
  "文書,q5,a,0.25",
  '"d,comma",q6,a,0.1',
  '"d,comma",q7,a,0.2',
  "😀,q8,a,0.3333333333333333",
  "😀,q9,a,0",
  "Ärzte-Übersicht,q1,b,0.5",
  "Ärzte-Übersicht,q2,b,0.75",
  "文書,q3,b,1099511627776",
  "文書,q4,b,1",
  "文書,q5,b,0.25",
  '"d,comma",q6,b,0.1',
  '"d,comma",q7,b,0.7',
  "😀,q8,b,0.3333333333333333",
  "😀,q9,b,1",
].join("\n");

describe("ragci sql", () => {
  it("--help has an example; a missing --table/--sql, a bad dialect or --label n is one line, exit 2", () => {
    const help = ragci(["sql", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\$ ragci sql --dialect postgres --table results/);
    const none = ragci(["sql", "--dialect", "duckdb", "--doc", "d", "--metric", "m"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'ragci: give the rows with --table NAME or --sql "SELECT …" (one of them)\n',
    );
    const rows = ["--table", "t", "--doc", "d", "--metric", "m"];
    const bad = ragci(["sql", "--dialect", "oracle", ...rows]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ragci: --dialect oracle: use one of duckdb, postgres, bigquery/);
    // A --label named as a column of the table names --label, not the SQL.
    const label = ragci(["sql", "--dialect", "postgres", ...rows, "--label", "n"]);
    expect(label.code).toBe(2);
    expect(label.stderr).toBe(
      "ragci: --label n: the per-document table already has a column n (system, metric, doc, n, s, ss, min, max); keep a column of another name\n",
    );
  });

  it("the printed duckdb SQL, run on DuckDB over the example, gives analyze --write-aggregates' table", async () => {
    const written = join(dir, "perdoc.parquet");
    const analysis = ragci([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5,rr",
      "--system",
      "system",
      "--replicates",
      "0",
      "--write-aggregates",
      written,
      "--json",
    ]);
    expect(analysis.code).toBe(0);
    const sql = printed([
      "--dialect",
      "duckdb",
      "--sql",
      `SELECT * FROM read_csv(${sqlString(EXAMPLE)})`,
      "--doc",
      "doc_id",
      "--metric",
      "hit5,rr",
      "--system",
      "system",
    ]);
    const rows = await withDuckDb((c) => queryRows(c, sql.replace(/;\s*$/, "")));
    expect(rows).toHaveLength(98 * 2 * 2);
    const fromFile = await readAggregates({ file: written, system: "system" });
    expect(await asTable(rows)).toEqual(groupsOf(fromFile));
  });
});

/**
 * PostgreSQL adds each double's shortest decimal (the number as written: 0.1 + 0.2 = 0.3),
 * the file path each double rounded to 18 decimals (0.1 + 0.2 = 0.30000000000000004): the same
 * documents, counts, ranges and whole-number sums; real-valued sums agree to the file path's
 * rounding (n · 0.5·10⁻¹⁸, which for small squares exceeds an ulp) plus 1 ulp.
 */
function expectSameTable(actual: Groups, expected: Groups): void {
  const shape = (g: Groups) =>
    g.map(({ system, metric, stats }) => ({
      system,
      metric,
      ids: stats.ids,
      n: stats.n,
      binary: stats.binary,
      min: stats.min,
      max: stats.max,
    }));
  expect(shape(actual)).toEqual(shape(expected));
  actual.forEach((g, i) => {
    const e = (expected[i] as Groups[number]).stats;
    for (const key of ["s", "ss"] as const) {
      g.stats[key].forEach((x, d) => {
        const y = e[key][d] as number;
        if (Number.isInteger(y)) expect(x).toBe(y);
        else
          expect(Math.abs(x - y)).toBeLessThanOrEqual(
            2 ** -51 * Math.abs(y) + (g.stats.n[d] as number) * 0.5e-18,
          );
      });
    }
  });
}

describe("ragci sql on a real PostgreSQL", () => {
  let server: TestPostgres;
  let client: pg.Client;
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await loadExampleTable(client, "results");
    const path = join(dir, "tricky.csv");
    writeFileSync(path, `${TRICKY}\n`);
    await loadScoreTable(client, "tricky", path);
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it("the printed postgres SQL gives the file path's per-document table of the example", async () => {
    const sql = printed([
      "--dialect",
      "postgres",
      "--table",
      "results",
      "--doc",
      "doc_id",
      "--metric",
      "hit5,rr",
      "--system",
      "system",
    ]);
    const result = await client.query(sql);
    // The aggregation runs in PostgreSQL: 2,760 rows in, K = 98 rows per system × metric out.
    expect(result.rowCount).toBe(98 * 2 * 2);
    const plan = await client.query(`EXPLAIN ${sql}`);
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/(Hash|Group)Aggregate/);
    const file = groupsOf(
      await readResults({ file: EXAMPLE, metrics: ["hit5", "rr"], system: "system" }),
    );
    const fromPostgres = await asTable(result.rows);
    expectSameTable(fromPostgres, file);
    // hit5 is 0/1: bit for bit.
    const hits = (g: Groups) => g.filter((x) => x.metric === "hit5");
    expect(hits(fromPostgres)).toEqual(hits(file));
  });

  it("the same on Unicode ids, ties and values near 10¹² (exact numeric sums in PostgreSQL)", async () => {
    const sql = printed([
      "--dialect",
      "postgres",
      "--table",
      "tricky",
      "--doc",
      "doc_id",
      "--metric",
      "score",
      "--system",
      "system",
      "--query",
      "query_id",
    ]);
    const result = await client.query(sql);
    const path = join(dir, "tricky.csv");
    const file = await readResults({ file: path, metrics: ["score"], system: "system" });
    // The file path adds values this large as doubles in file order (exact for these).
    expect(file.summation).toBe("double-single-thread");
    expectSameTable(await asTable(result.rows), groupsOf(file));
    expect(groupsOf(file)[0]?.stats.ids).toContain("文書");
  });

  it("a NULL metric fails the statement with ragci's message", async () => {
    await client.query("CREATE TEMP TABLE withnull AS SELECT * FROM tricky");
    await client.query("UPDATE withnull SET score = NULL WHERE query_id IN ('q2', 'q5')");
    const sql = printed([
      "--dialect",
      "postgres",
      "--table",
      "withnull",
      "--doc",
      "doc_id",
      "--metric",
      "score",
      "--system",
      "system",
    ]);
    await expect(client.query(sql)).rejects.toThrow(
      /ragci: 4 rows have score NULL, NaN or infinite; every result needs a finite value/,
    );
  });
});
