import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectClose } from "../expectClose.js";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { loadExampleTable } from "../postgres/exampleTable.js";
import {
  analysisOf as analysisIn,
  EXAMPLE,
  ragci,
  ragciJson,
  ragciOk,
  scratchDir,
} from "./runCli.js";

const dir = scratchDir();

/** The analysis without its inputs (a file vs a database) and the aggregates' digests. */
function analysisOf(o: Record<string, any>): Record<string, any> {
  const { inputs, command, aggregatesFile, ...rest } = o;
  for (const analysis of rest.analyses.filter((a: any) => a.metric === "rr")) {
    for (const estimand of ["micro", "macro"]) {
      // Per-document rows cannot resample single results: the rr chunk bootstrap (a contrast).
      delete analysis[estimand].intervals["chunk-bootstrap"];
    }
  }
  return JSON.parse(JSON.stringify(rest, (k, v) => (k === "aggregatesSha256" ? undefined : v)));
}

describe("analyze --from postgresql://… (the aggregation runs in PostgreSQL)", () => {
  let server: TestPostgres;
  let client: pg.Client;
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await loadExampleTable(client, "covidqa");
    await client.query("DROP TABLE IF EXISTS holes");
    await client.query("CREATE TABLE holes AS SELECT * FROM covidqa");
    await client.query("UPDATE holes SET hit5 = NULL WHERE query_id IN ('262', '276')");
    await client.query("DROP TABLE IF EXISTS nonfinite");
    await client.query("CREATE TABLE nonfinite AS SELECT * FROM covidqa");
    await client.query(
      "UPDATE nonfinite SET rr = CASE query_id WHEN '262' THEN 'NaN'::float8 ELSE '-Infinity'::float8 END WHERE query_id IN ('262', '276') AND system = 'bm25'",
    );
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });
  const metricArgs = [
    "--doc",
    "doc_id",
    "--metric",
    "hit5,rr",
    "--system",
    "system",
    "--replicates",
    "999",
  ];

  it("gives the file's analysis from K rows per system × metric (--table and --sql)", () => {
    const file = ragciJson(["analyze", EXAMPLE, ...metricArgs]);
    for (const source of [
      ["--table", "covidqa"],
      ["--sql", "SELECT doc_id, system, hit5, rr FROM covidqa"],
    ]) {
      const db = ragciJson(["analyze", "--from", server.url, ...source, ...metricArgs]);
      // 2,760 rows stay in PostgreSQL; 98 documents × 2 systems × 2 metrics come back.
      expect(db.inputs).toEqual([
        expect.objectContaining({ format: "postgres", kind: "per-document", rows: 392 }),
      ]);
      expect(db.inputs[0].file).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres /);
      expect(db.inputs[0].sha256).toMatch(/^[0-9a-f]{64}$/);
      // 0/1 sums are whole numbers: the same analysis bit for bit.
      expect(analysisIn(db, "bm25", "hit5")).toEqual(analysisIn(file, "bm25", "hit5"));
      expect(analysisIn(db, "tfidf", "hit5")).toEqual(analysisIn(file, "tfidf", "hit5"));
      // rr sums: PostgreSQL adds the decimals exactly, the file path rounds each to 18 decimals.
      expectClose(analysisOf(db), analysisOf(file), 1e-12);
    }
  });

  it("--write-aggregates from --from re-runs with --aggregated", () => {
    const report = ragciJson([
      "analyze",
      "--from",
      server.url,
      "--table",
      "covidqa",
      ...metricArgs,
      "--write-aggregates",
      join(dir, "from-pg.parquet"),
    ]);
    const again = ragciJson([
      "analyze",
      join(dir, "from-pg.parquet"),
      "--aggregated",
      "--system",
      "system",
      "--replicates",
      "999",
    ]);
    expect(analysisOf(again)).toEqual(analysisOf(report));
  });

  it.each([
    ["a NULL metric", "holes", "4 rows have hit5"],
    ["NaN and infinite values, not with a failed cast's message", "nonfinite", "2 rows have rr"],
  ])("refuses %s with ragci's message (one line, exit 2)", (_, table, rows) => {
    const r = ragci(["analyze", "--from", server.url, "--table", table, ...metricArgs]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      new RegExp(
        `^ragci: postgresql://.* table ${table}: ${rows} NULL, NaN or infinite; every result needs a finite value\n$`,
      ),
    );
  });

  it("never shows the password, in a report or in a connection error", () => {
    const withPassword = server.url.replace("postgres@", "postgres:s3cr%C3%A9t@");
    const ok = ragciOk([
      "analyze",
      "--from",
      withPassword,
      "--table",
      "covidqa",
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--replicates",
      "0",
    ]);
    expect(ok).toContain("postgres:***@127.0.0.1");
    const unreachable = ragci([
      "analyze",
      "--from",
      "postgresql://me:s3cr%C3%A9t@127.0.0.1:1/db",
      "--table",
      "t",
      "--metric",
      "hit5",
    ]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      /^ragci: postgresql:\/\/me:\*\*\*@127\.0\.0\.1:1\/db: cannot connect to PostgreSQL \(.*\)\n$/,
    );
    for (const text of [ok, unreachable.stdout, unreachable.stderr]) {
      expect(text).not.toMatch(/s3cr/);
    }
  });

  it("names the client to install for another warehouse, and refuses unclear sources", () => {
    const cases: [string[], RegExp][] = [
      [
        ["--from", "bigquery://proj/ds", "--table", "t", "--metric", "m"],
        /^ragci: --from bigquery:\/\/proj\/ds: reading BigQuery needs the package @google-cloud\/bigquery, which is not installed: npm install @google-cloud\/bigquery@8 \(beside ragci\)\n$/,
      ],
      [
        ["--from", "mysql://me@host/db", "--table", "t", "--metric", "m"],
        /^ragci: --from mysql:…: give a URL of one of postgresql:\/\/user@host:5432\/db, bigquery:\/\/project\/dataset/,
      ],
      [
        ["--from", server.url, "--metric", "m"],
        /--from needs the rows: --table NAME or --sql "SELECT …"/,
      ],
      [[EXAMPLE, "--from", server.url, "--table", "t"], /give either files or --from, not both/],
      [["--metric", "m"], /give the results files, or --from URL --table T/],
      [
        ["--from", server.url, "--table", "covidqa", "--metric", "nope"],
        /table covidqa: no metric column "nope"; the columns are doc_id, query_id/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = ragci(["analyze", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
