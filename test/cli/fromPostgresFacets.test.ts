import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { insertRows } from "../postgres/exampleTable.js";
import { ROOT, ragci } from "./runCli.js";

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
const ARGS = ["--doc", "doc_id", "--metric", "found", "--system", "system", "--judge", "judge"];

describe("analyze --from postgresql://… --judge (the facet cells' GROUP BY runs in PostgreSQL)", () => {
  let server: TestPostgres;
  let client: pg.Client;
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("DROP TABLE IF EXISTS judges");
    await client.query(
      "CREATE TABLE judges (doc_id text, query_id text, system text, judge text, found double precision)",
    );
    const [, ...lines] = readFileSync(JUDGES, "utf8").trim().split(/\r?\n/);
    await insertRows(
      client,
      "judges",
      lines.map((l) => l.split(",")),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it("gives the file's variance components, population and fixed intervals, and per-document analysis", () => {
    const file = ragci(["analyze", JUDGES, ...ARGS, "--json"]);
    const database = ragci([
      "analyze",
      "--from",
      server.url,
      "--table",
      "judges",
      ...ARGS,
      "--json",
    ]);
    expect(database.stderr).toBe("");
    expect(database.code).toBe(0);
    const [f, d] = [JSON.parse(file.stdout), JSON.parse(database.stdout)];
    expect(d.analyses.map((a: any) => a.system)).toEqual(["bm25", "tfidf"]);
    d.analyses.forEach((a: any, i: number) => {
      const want = f.analyses[i];
      expect(Object.keys(a.varianceComponents)).toEqual(Object.keys(want.varianceComponents));
      for (const [k, v] of Object.entries(want.varianceComponents))
        expect(a.varianceComponents[k]).toBeCloseTo(v as number, 9);
      for (const which of ["population", "fixed"])
        for (const key of ["estimate", "lower", "upper", "df"])
          expect(a.facets[which][key]).toBeCloseTo(want.facets[which][key], 9);
      expect(a.facets.dominant).toBe(want.facets.dominant);
      // The per-document path reads each query's mean over the judges, as the file's does.
      expect(a.micro.estimate).toBeCloseTo(want.micro.estimate, 12);
      expect(a.documents).toBe(want.documents);
    });
    expect(JSON.stringify(d.notes ?? d.notices ?? d)).toContain(
      "each query's result is its mean over 3 judges (column judge: lenient, medium, strict)",
    );
  }, 240_000);

  it("compare and plan with --from and facets are still refused in one line", () => {
    const run = ragci(["compare", "--from", server.url, "--table", "judges", ...ARGS]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("are read by analyze for now; export the table to Parquet");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  }, 120_000);

  it("refuses a judge column that is also the document id (the file path refuses it too)", () => {
    const args = [
      "--doc",
      "doc_id",
      "--metric",
      "found",
      "--system",
      "system",
      "--judge",
      "doc_id",
    ];
    // A file's facet columns leave its id candidates: there the document column is not found.
    const file = ragci(["analyze", JUDGES, ...args]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('no document column "doc_id"');
    const run = ragci(["analyze", "--from", server.url, "--table", "judges", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "judges: column doc_id cannot be both a facet (trial, judge, variant) and the document, system or query id",
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  }, 120_000);
});
