import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { insertRows } from "../postgres/exampleTable.js";
import { ROOT, ragci, scratchDir } from "./runCli.js";

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
const ARGS = ["--doc", "doc_id", "--metric", "found", "--system", "system", "--judge", "judge"];
const TABLE = (server: TestPostgres) => `${server.url} table judges`;
const dir = scratchDir();

/**
 * A database read's report against the file's on the same rows: the same keys, strings equal
 * once the source's name replaces the file's, numbers to 1e-9 (PostgreSQL adds exactly, DuckDB
 * with fsum).
 */
function expectSameReport(got: unknown, want: unknown, fileName: string, name: string, at: string) {
  if (typeof want === "number" && typeof got === "number") {
    expect(Math.abs(got - want), at).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
  } else if (typeof want === "string") {
    expect(got, at).toBe(want.replaceAll(fileName, name));
  } else if (want !== null && typeof want === "object") {
    expect(got !== null && typeof got === "object", at).toBe(true);
    const [g, w] = [got as Record<string, unknown>, want as Record<string, unknown>];
    expect(Object.keys(g), at).toEqual(Object.keys(w));
    for (const key of Object.keys(w))
      expectSameReport(g[key], w[key], fileName, name, `${at}.${key}`);
  } else {
    expect(got, at).toEqual(want);
  }
}

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

  it("compare --from … --judge gives the file's report: the pairs on each query's mean, each system's and the difference's components", () => {
    const file = ragci(["compare", JUDGES, ...ARGS, "--json"]);
    const database = ragci([
      "compare",
      "--from",
      server.url,
      "--table",
      "judges",
      ...ARGS,
      "--json",
    ]);
    expect(database.stderr).toBe("");
    expect(database.code).toBe(0);
    const [d, f] = [JSON.parse(database.stdout), JSON.parse(file.stdout)];
    for (const part of ["facets", "varianceComponents", "notes"])
      expectSameReport(d[part], f[part], JUDGES, TABLE(server), part);
    expectSameReport(
      d.comparisons.map((c: any) => c.difference.micro.estimate),
      f.comparisons.map((c: any) => c.difference.micro.estimate),
      JUDGES,
      TABLE(server),
      "difference",
    );
  }, 240_000);

  it("plan --from … --judge gives the file's plan, for one system and for a pair", () => {
    const cost = ["--cost", "document=10,query=1,trial=0.2,judge=0.5", "--json"];
    for (const systems of ["system=bm25", "system=bm25,tfidf"]) {
      const args = [...ARGS.slice(0, -4), "--system", systems, "--judge", "judge", ...cost];
      const extra = systems.includes(",") ? ["--difference", "0.03"] : ["--half-width", "0.05"];
      const file = ragci(["plan", JUDGES, ...args, ...extra]);
      const database = ragci([
        "plan",
        "--from",
        server.url,
        "--table",
        "judges",
        ...args,
        ...extra,
      ]);
      expect(database.stderr, systems).toBe("");
      expect(database.code, systems).toBe(0);
      const [d, f] = [JSON.parse(database.stdout), JSON.parse(file.stdout)];
      expect(d.facets, systems).toBeDefined();
      expectSameReport(d.facets, f.facets, JUDGES, TABLE(server), systems);
    }
  }, 240_000);

  it("plan --from … --judge without --system finds the system column and asks for one system, as the file path does", () => {
    const args = [
      "--doc",
      "doc_id",
      "--metric",
      "found",
      "--judge",
      "judge",
      "--half-width",
      "0.05",
    ];
    const file = ragci(["plan", JUDGES, ...args]);
    const database = ragci(["plan", "--from", server.url, "--table", "judges", ...args]);
    expect(file.code).toBe(2);
    expect(database.code).toBe(2);
    const ask =
      "2 systems in column system (bm25, tfidf); plan uses one: pick it with --system system=bm25";
    expect(file.stderr).toContain(ask);
    expect(database.stderr).toBe(`ragci: ${TABLE(server)}: ${ask}\n`);
  }, 120_000);

  it("pairs as the file path does: a query missing from a system refused, kept out with --intersect; a query under two documents refused", async () => {
    const rows: string[][] = [];
    for (const system of ["a", "b"])
      for (let d = 0; d < 6; d++)
        for (let q = 0; q < 2; q++)
          for (const judge of ["j1", "j2"]) {
            if (system === "b" && d === 1 && q === 1) continue;
            rows.push([
              `d${d}`,
              `d${d}q${q}`,
              system,
              judge,
              String((d * 3 + q + judge.length) % 2),
            ]);
          }
    const twice = [...rows, ["d5", "d0q0", "a", "j1", "1"], ["d5", "d0q0", "b", "j1", "1"]];
    for (const [name, table] of [
      ["unpaired", rows],
      ["twice", twice],
    ] as const) {
      await client.query(`DROP TABLE IF EXISTS ${name}`);
      await client.query(
        `CREATE TABLE ${name} (doc_id text, query_id text, system text, judge text, found double precision)`,
      );
      await insertRows(client, name, table as string[][]);
      writeFileSync(
        join(dir, `${name}.csv`),
        `doc_id,query_id,system,judge,found\n${table.map((r) => r.join(",")).join("\n")}\n`,
      );
    }
    const both = (name: string, extra: readonly string[] = []) => ({
      file: ragci(["compare", join(dir, `${name}.csv`), ...ARGS, ...extra, "--json"]),
      database: ragci([
        "compare",
        "--from",
        server.url,
        "--table",
        name,
        ...ARGS,
        ...extra,
        "--json",
      ]),
    });
    for (const name of ["unpaired", "twice"]) {
      const { file, database } = both(name);
      expect(file.code, name).toBe(2);
      expect(database.code, name).toBe(2);
      expect(database.stderr.trim().split("\n"), name).toHaveLength(1);
    }
    // The file names the query; the database counts them (its check runs in one statement).
    expect(both("unpaired").file.stderr).toContain("query d1q1 has a result for a but not for b");
    expect(both("unpaired").database.stderr).toContain(
      "table unpaired: 1 queries have a result for some of the systems (a, b) but not all",
    );
    expect(both("twice").file.stderr).toContain("d0q0");
    expect(both("twice").database.stderr).toContain(
      "table twice: 2 queries appear more than once for a system in query_id; each query needs one result per system",
    );
    const { file, database } = both("unpaired", ["--intersect"]);
    expect(database.stderr).toBe("");
    expect(database.code).toBe(0);
    const [d, f] = [JSON.parse(database.stdout), JSON.parse(file.stdout)];
    for (const part of ["facets", "varianceComponents", "notes"])
      expectSameReport(
        d[part],
        f[part],
        join(dir, "unpaired.csv"),
        `${server.url} table unpaired`,
        part,
      );
  }, 240_000);

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
