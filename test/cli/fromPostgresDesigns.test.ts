import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { insertRows } from "../postgres/exampleTable.js";
import {
  analysisOf,
  comparisonOf,
  EXAMPLE,
  ragci,
  ragciJson,
  ragciOk,
  scratchDir,
} from "./runCli.js";

const dir = scratchDir();

/**
 * The bundled example with each article's stratum (its id even or odd) and first-stage unit
 * (its topic: id mod 7), as the file path reads them and as PostgreSQL table `designed`.
 */
const [HEADER, ...ROWS] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
const labelled = ROWS.map((line) => {
  const id = Number(line.split(",")[0]);
  return [...line.split(","), id % 2 === 0 ? "even" : "odd", `u${id % 7}`];
});
const DESIGNED = join(dir, "designed.csv");
writeFileSync(DESIGNED, `${HEADER},parity,topic\n${labelled.map((r) => r.join(",")).join("\n")}\n`);

/** Documents per value of column `at` (8: parity, 9: topic), for the designs' population sizes. */
function documentsPer(at: number): Record<string, number> {
  const docs = new Map<string, Set<string>>();
  for (const r of labelled) {
    const key = r[at] as string;
    docs.set(key, (docs.get(key) ?? new Set()).add(r[0] as string));
  }
  return Object.fromEntries([...docs].map(([k, v]) => [k, v.size]));
}

/** A design file: 3× the sample's documents in each stratum; 10 topics of 3× theirs. */
function designFile(name: string, design: object): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(design));
  return path;
}
const triple = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, 3 * v]));
const STRATIFIED = designFile("parity.design.json", {
  design: "stratified",
  strata: triple(documentsPer(8)),
});
const TWO_STAGE = designFile("topics.design.json", {
  design: "two-stage",
  first_stage_population: 10,
  second_stage_population: triple(documentsPer(9)),
});

/** A report without what says where its rows came from. */
function withoutInputs(report: any): any {
  const { inputs, census, ...rest } = report;
  if (census) {
    const { file, sha256, kind, ...kept } = census;
    return { ...rest, census: kept };
  }
  return rest;
}

describe("a design's stratum or psu through --from (carried per document by the GROUP BY)", () => {
  let server: TestPostgres;
  let client: pg.Client;
  const from = (table: string) => ["--from", server.url, "--table", table];
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("DROP TABLE IF EXISTS designed, unlabelled, split");
    await client.query(
      "CREATE TABLE designed (doc_id text, query_id text, system text, rank integer, hit1 integer, hit5 integer, hit10 integer, rr double precision, parity text, topic text)",
    );
    await insertRows(client, "designed", labelled);
    await client.query("CREATE TABLE unlabelled AS SELECT * FROM designed");
    await client.query("UPDATE unlabelled SET topic = ' ' WHERE doc_id IN ('630', '1545')");
    await client.query("CREATE TABLE split AS SELECT * FROM designed");
    await client.query("UPDATE split SET topic = 'u9' WHERE query_id = '262' AND system = 'bm25'");
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });
  const columns = ["--doc", "doc_id", "--metric", "hit5", "--replicates", "0"];

  it("analyze --design stratified: the file's analysis", () => {
    const args = ["analyze", ...columns, "--system", "system", "--design", STRATIFIED];
    const file = ragciJson([...args, "--stratum", "parity", DESIGNED]);
    const db = ragciJson([...args, "--stratum", "parity", ...from("designed")]);
    expect(analysisOf(db, "bm25", "hit5").design.kind).toBe("stratified");
    expect(analysisOf(db, "bm25", "hit5").micro.recommended).toBe("stratified");
    expect(withoutInputs(db)).toEqual(withoutInputs(file));
  });

  it("compare --design two-stage: the file's comparison, the difference's interval with ν = m − 1", () => {
    const args = ["compare", ...columns, "--query", "query_id", "--system", "system"];
    const design = ["--design", TWO_STAGE, "--psu", "topic"];
    const file = ragciJson([...args, ...design, DESIGNED]);
    const db = ragciJson([...args, ...design, ...from("designed")]);
    const difference = comparisonOf(db, "hit5").difference.micro.intervals["two-stage"];
    expect(difference.df).toBe(6);
    expect(withoutInputs(db)).toEqual(withoutInputs(file));
  });

  it("simulate --sampling two-stage --psu topic: the same study, one system and a pair", () => {
    const common = ["simulate", "--doc", "doc_id", "--metric", "hit5", "--reps", "20"];
    const design = ["--sampling", "two-stage", "--psu", "topic", "--units", "3", "--per-unit", "5"];
    for (const system of ["system=bm25", "system=bm25,tfidf"]) {
      const args = [...common, ...design, "--system", system, "--query", "query_id"];
      const file = ragciJson([...args, DESIGNED]);
      const db = ragciJson([...args, ...from("designed")]);
      expect(db.studies[0].design.kind).toBe("two-stage");
      expect(withoutInputs(db)).toEqual(withoutInputs(file));
    }
  });

  it("an empty label, a document under two topics and a missing column are one line, exit 2", () => {
    const args = ["analyze", ...columns, "--system", "system", "--design", TWO_STAGE];
    const cases: [string[], RegExp][] = [
      [
        [...from("unlabelled"), "--psu", "topic"],
        /^ragci: postgresql:\/\/.* table unlabelled: \d+ rows have no topic \(NULL or empty\); the design needs it for every document\n$/,
      ],
      [
        [...from("split"), "--psu", "topic"],
        /^ragci: postgresql:\/\/.* table split: 1 documents have more than one topic; a document belongs to one topic\n$/,
      ],
      [
        [...from("designed"), "--psu", "unit"],
        /^ragci: postgresql:\/\/.* table designed: no design column "unit"/,
      ],
    ];
    for (const [source, message] of cases) {
      const r = ragci([...args, ...source]);
      expect(r.code, source.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
    }
  });

  it("ragci sql --label: the printed SQL's table, read with --aggregated --design, gives the file's analysis", async () => {
    const sql = ragciOk([
      "sql",
      "--dialect",
      "postgres",
      "--table",
      "designed",
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system",
      "--label",
      "topic",
    ]);
    const { rows } = await client.query(sql);
    expect(Object.keys(rows[0])).toEqual([
      "system",
      "metric",
      "doc",
      "n",
      "s",
      "ss",
      "min",
      "max",
      "topic",
    ]);
    const perdoc = join(dir, "perdoc.csv");
    writeFileSync(
      perdoc,
      `system,doc,n,s,ss,topic\n${rows.map((r) => [r.system, r.doc, r.n, r.s, r.ss, r.topic].join(",")).join("\n")}\n`,
    );
    const design = ["--design", TWO_STAGE, "--psu", "topic", "--replicates", "0"];
    const args = ["analyze", "--system", "system", ...design];
    const aggregated = ragciJson([...args, perdoc, "--aggregated"]);
    const file = ragciJson([...args, "--doc", "doc_id", "--metric", "hit5", DESIGNED]);
    for (const name of ["bm25", "tfidf"]) {
      // The table has no metric column: its metric is named after its sum column, s.
      const fromTable = analysisOf(aggregated, name, "s").micro.intervals["two-stage"];
      expect(fromTable).toEqual(analysisOf(file, name, "hit5").micro.intervals["two-stage"]);
      expect(fromTable.df).toBe(6);
    }
  });
});
