import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAggregates } from "../../src/ingest/index.js";
import { withPerDocumentFile } from "../../src/ingest/sql/perDocumentRows.js";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { loadExampleTable } from "../postgres/exampleTable.js";
import { EXAMPLE, ragci, ragciJson, ragciOk, scratchDir } from "./runCli.js";

const dir = scratchDir();
const [HEADER, ...EXAMPLE_ROWS] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);

/** A CSV of the example's columns, written to the scratch directory. */
function csv(name: string, rows: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[HEADER, ...rows].join("\n")}\n`);
  return path;
}

/** The example and a third system, "hybrid": bm25's rows with hit5 and hit10 flipped on every 7th. */
const THREE = csv("three.csv", [
  ...EXAMPLE_ROWS,
  ...EXAMPLE_ROWS.filter((r) => r.split(",")[2] === "bm25").map((r, i) => {
    const [doc, query, , rank, hit1, hit5, hit10, rr] = r.split(",");
    const flip = (v: string | undefined) => (i % 7 === 0 ? String(1 - Number(v)) : v);
    return [doc, query, "hybrid", rank, hit1, flip(hit5), flip(hit10), rr].join(",");
  }),
]);

/** The example without tfidf's results for the queries whose id ends in 3 (compare needs --intersect). */
const PARTIAL_ROWS = EXAMPLE_ROWS.filter(
  (r) => !(r.split(",")[2] === "tfidf" && r.split(",")[1]?.endsWith("3")),
);
const PARTIAL = csv("partial.csv", PARTIAL_ROWS);
/** bm25's queries left without a tfidf result (one row per query and system in the example). */
const UNPAIRED = EXAMPLE_ROWS.length - PARTIAL_ROWS.length;

/**
 * compare's report with the chunk bootstrap of the differences set aside where the file has it
 * and the database cannot: it resamples single per-query differences, and only K per-document
 * rows come back (as with --aggregated). Every other chunk bootstrap must agree. Returns how
 * many were set aside.
 */
function chunkBootstrapsAside(file: any, db: any): number {
  let aside = 0;
  const walk = (f: any, d: any) => {
    if (!f || typeof f !== "object" || !d || typeof d !== "object") return;
    for (const key of Object.keys(f)) {
      const cb = d[key];
      if (key === "chunk-bootstrap" && f[key].available && !cb?.available) {
        expect(cb.reason).toBe(
          "non-binary metric from per-document input: resampling results needs the per-query values",
        );
        f[key] = d[key] = "set aside";
        aside++;
      } else walk(f[key], cb);
    }
  };
  walk(file, db);
  return aside;
}

/** The report of `ragci ARGS FILE` and of `ragci ARGS --from URL SOURCE`, as JSON. */
function bothJson(
  args: readonly string[],
  file: string,
  from: readonly string[],
): { file: any; db: any } {
  return { file: ragciJson([...args, file]), db: ragciJson([...args, ...from]) };
}

describe("compare, plan, strata and simulate --from postgresql://… (a real PostgreSQL) give the file's report", () => {
  let server: TestPostgres;
  let client: pg.Client;
  const from = (table: string) => ["--from", server.url, "--table", table];
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await loadExampleTable(client, "covidqa");
    await loadExampleTable(client, "three", THREE);
    await loadExampleTable(client, "partial", PARTIAL);
    await client.query("DROP TABLE IF EXISTS holes");
    await client.query("CREATE TABLE holes AS SELECT * FROM covidqa");
    await client.query("UPDATE holes SET hit5 = NULL WHERE query_id IN ('262', '276')");
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  const columns = ["--doc", "doc_id", "--query", "query_id", "--system", "system"];
  const compareArgs = ["compare", ...columns, "--metric", "hit5,hit10", "--replicates", "999"];

  it("compare: the whole --json but the inputs' description (--table and --sql)", () => {
    const file = ragciJson([...compareArgs, EXAMPLE]);
    for (const source of [
      from("covidqa"),
      ["--from", server.url, "--sql", "SELECT doc_id, query_id, system, hit5, hit10 FROM covidqa"],
    ]) {
      const { inputs, ...db } = ragciJson([...compareArgs, ...source]);
      // 2,760 rows stay in PostgreSQL; 98 documents × (2 systems + 1 difference) × 2 metrics.
      expect(inputs).toEqual([
        expect.objectContaining({ format: "postgres", kind: "per-document", rows: 98 * 3 * 2 }),
      ]);
      expect(inputs[0].file).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres /);
      const { inputs: _, ...fromFile } = structuredClone(file);
      // hit5 and hit10, micro and macro.
      expect(chunkBootstrapsAside(fromFile, db)).toBe(4);
      expect(db).toEqual(fromFile);
    }
  });

  it("compare --baseline and --all-pairs on three systems: the file's pairs, Holm and tie groups", () => {
    for (const policy of [["--baseline", "hybrid"], ["--all-pairs"]]) {
      const { file, db } = bothJson([...compareArgs, ...policy], THREE, from("three"));
      expect(db.schema).toBe("ragci/schemas/compare.v2.json");
      delete file.inputs;
      delete db.inputs;
      expect(chunkBootstrapsAside(file, db)).toBeGreaterThan(0);
      expect(db).toEqual(file);
    }
  });

  it("compare --intersect: the same common queries and dropped counts; without it one line, exit 2", () => {
    const { file, db } = bothJson([...compareArgs, "--intersect"], PARTIAL, from("partial"));
    expect(UNPAIRED).toBeGreaterThan(100);
    expect(db.dropped).toEqual({ bm25: UNPAIRED, tfidf: 0 });
    delete file.inputs;
    delete db.inputs;
    chunkBootstrapsAside(file, db);
    expect(db).toEqual(file);
    const r = ragci([...compareArgs, ...from("partial")]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^ragci: postgresql:\/\/.* table partial: \d+ queries have/);
    expect(r.stderr).toContain(
      ` table partial: ${UNPAIRED} queries have a result for some of the systems (bm25, tfidf) but not all; each query needs a result from every system\n`,
    );
  });

  it("plan: the same S, K and curve from a pilot, a census with --cutoff, and a pair's differences", () => {
    const common = ["plan", "--doc", "doc_id", "--metric", "hit5"];
    for (const args of [
      ["--system", "system=bm25", "--half-width", "0.03", "--population", "1300"],
      ["--system", "system=tfidf", "--census", "--half-width", "0.05", "--cutoff", "20"],
      ["--system", "system=bm25,tfidf", "--query", "query_id", "--difference", "0.03"],
    ]) {
      const { file, db } = bothJson([...common, ...args], EXAMPLE, from("covidqa"));
      expect(db.source.file).toMatch(/^postgresql:\/\/.* table covidqa$/);
      expect(db.source.sha256).toMatch(/^[0-9a-f]{64}$/);
      for (const report of [file, db]) {
        delete report.source.file;
        delete report.source.sha256;
      }
      expect(db).toEqual(file);
    }
  });

  it("strata: the same cutoff, allocations and predicted se, and the same drawn sample", () => {
    const args = ["strata", "--doc", "doc_id", "--metric", "hit10", "--system", "system=bm25"];
    const sample = (name: string) => ["--documents", "20", "--write-sample", join(dir, name)];
    const file = ragciJson([...args, ...sample("file-sample.csv"), EXAMPLE]);
    const db = ragciJson([...args, ...sample("db-sample.csv"), ...from("covidqa")]);
    expect(db.sample).toBe(join(dir, "db-sample.csv"));
    db.sample = file.sample;
    // The source is named as read: the file, or the database's URL and table.
    expect(file.file).toBe(EXAMPLE);
    expect(db.file).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres table covidqa$/);
    db.file = file.file;
    expect(db).toEqual(file);
    const drawn = readFileSync(join(dir, "db-sample.csv"), "utf8");
    expect(drawn).toBe(readFileSync(join(dir, "file-sample.csv"), "utf8"));
    expect(drawn.trim().split("\n")).toHaveLength(21);
    // The terminal report names the source.
    const text = ragciOk([...args, "--documents", "20", ...from("covidqa")]);
    expect(text).toMatch(
      /^ragci strata postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres table covidqa · system bm25 ·/,
    );
  });

  it("simulate: the same study bytes (--reps 20), for one system and for a pair's differences", () => {
    const common = ["simulate", "--doc", "doc_id", "--metric", "hit5", "--reps", "20"];
    for (const args of [
      ["--system", "system=bm25", "--k", "10,20", "--replicates", "99"],
      ["--system", "system=bm25,tfidf", "--query", "query_id", "--k", "15", "--replicates", "99"],
    ]) {
      const file = ragciOk([...common, ...args, "--json", EXAMPLE]);
      const db = ragciOk([...common, ...args, "--json", ...from("covidqa")]);
      const census = JSON.parse(db).census;
      expect(census).toEqual(
        expect.objectContaining({
          file: expect.stringMatching(/^postgresql:\/\/.* table covidqa$/),
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          kind: "per-document",
          documents: 98,
        }),
      );
      const fileCensus = JSON.parse(file).census;
      // Where the census came from is all that differs, byte for byte.
      const same = db
        .replace(JSON.stringify(census.file), JSON.stringify(fileCensus.file))
        .replace(census.sha256, fileCensus.sha256)
        .replace('"kind": "per-document"', `"kind": "${fileCensus.kind}"`);
      expect(same).toBe(file);
    }
  });

  it("a bad source is one line and exit 2 in every command", () => {
    const commands: [string, string[]][] = [
      ["compare", ["--system", "system", "--query", "query_id", "--metric", "hit5"]],
      ["plan", ["--system", "system=bm25", "--metric", "hit5", "--half-width", "0.03"]],
      ["strata", ["--system", "system=bm25", "--metric", "hit5", "--documents", "20"]],
      ["simulate", ["--system", "system=bm25", "--metric", "hit5", "--k", "10", "--reps", "5"]],
    ];
    const cases: [string[], RegExp][] = [
      [
        [...from("nope"), "--doc", "doc_id"],
        /^ragci: postgresql:\/\/.* table nope: PostgreSQL: relation "nope" does not exist\n$/,
      ],
      [
        [...from("holes"), "--doc", "doc_id"],
        /^ragci: postgresql:\/\/.* table holes: 4 rows have hit5 NULL, NaN or infinite; every result needs a finite value\n$/,
      ],
      [
        ["--from", "mysql://me@host/db", "--table", "t"],
        /^ragci: --from mysql:…: give a URL of one of postgresql:\/\/user@host:5432\/db, /,
      ],
      [[EXAMPLE, ...from("covidqa")], /^ragci: give either files or --from, not both\n$/],
      [["--from", server.url], /^ragci: --from needs the rows: --table NAME or --sql "SELECT …"/],
      [["--table", "covidqa"], /^ragci: --table and --sql go with --from URL\n$/],
      [
        [...from("covidqa"), "--aggregated"],
        /^ragci: --from aggregates in the database; leave out --aggregated\n$/,
      ],
      [
        [...from("covidqa"), "--format", "csv"],
        /^ragci: --format describes a file; leave it out with --from\n$/,
      ],
      [
        [...from("covidqa"), "--doc", "nodoc"],
        /^ragci: postgresql:\/\/.* table covidqa: no document column "nodoc"/,
      ],
    ];
    for (const [command, args] of commands) {
      for (const [source, message] of cases) {
        const r = ragci([command, ...args, ...source]);
        const what = `${command} ${source.join(" ")}`;
        expect(r.code, what).toBe(2);
        expect(r.stdout, what).toBe("");
        expect(r.stderr, what).toMatch(message);
        expect(r.stderr.trim().split("\n"), what).toHaveLength(1);
      }
    }
  });

  it("with --from the outputs are still checked, before the database is reached", () => {
    // Port 1: nothing listens, so a run that got as far as connecting would say so.
    const unreachable = ["--from", "postgresql://me@127.0.0.1:1/db", "--table", "t"];
    const out = join(dir, "report.out");
    const commands: string[][] = [
      ["compare", "--system", "system", "--metric", "hit5"],
      ["plan", "--metric", "hit5", "--half-width", "0.03"],
      ["strata", "--metric", "hit5", "--documents", "20"],
      ["simulate", "--metric", "hit5", "--k", "10"],
    ];
    for (const command of commands) {
      const same = ragci([...command, ...unreachable, "-o", out, "--html", out]);
      expect(same.code).toBe(2);
      expect(same.stderr).toBe(
        `ragci: --html ${out}: is also the file of -o ${out}; give each output its own file\n`,
      );
      const missing = ragci([...command, ...unreachable, "-o", join(dir, "no/such/report")]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/^ragci: -o .*: directory .* does not exist;/);
    }
    // A --from report written with -o is the one on standard output.
    const args = ["plan", "--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25"];
    const written = join(dir, "plan.json");
    const target = [...args, "--half-width", "0.05", ...from("covidqa"), "--json"];
    expect(ragciOk([...target, "-o", written])).toBe("");
    expect(readFileSync(written, "utf8")).toBe(ragciOk(target));
  });

  it("--help of compare, plan, strata and simulate shows --from and an example with it", () => {
    for (const command of ["compare", "plan", "strata", "simulate"]) {
      const help = ragciOk([command, "--help"]);
      expect(help).toMatch(/--from <url>/);
      expect(help).toMatch(/--sql <select>/);
      expect(help).toMatch(
        new RegExp(`\\$ ragci ${command} --from postgresql://me@db/eval --table results`),
      );
    }
  });

  it("ragci sql --pair --intersect, run in PostgreSQL, gives compare --intersect --write-aggregates' table", async () => {
    const sqlArgs = [
      "sql",
      "--dialect",
      "postgres",
      "--table",
      "partial",
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system=bm25,tfidf",
      "--query",
      "query_id",
      "--pair",
    ];
    await expect(client.query(ragciOk(sqlArgs))).rejects.toThrow(
      `ragci: ${UNPAIRED} queries have a result for some of the systems (bm25, tfidf) but not all`,
    );
    const rows = (await client.query(ragciOk([...sqlArgs, "--intersect"]))).rows;
    const written = join(dir, "partial-pairs.csv");
    ragciOk([
      "compare",
      PARTIAL,
      ...columns,
      "--metric",
      "hit5",
      "--intersect",
      "--replicates",
      "0",
      "--write-aggregates",
      written,
    ]);
    const groups = (t: Awaited<ReturnType<typeof readAggregates>>) =>
      t.groups.map((g) => ({
        system: g.system,
        metric: g.metric,
        ids: [...g.stats.ids],
        n: [...g.stats.n],
        s: [...g.stats.s],
        ss: [...g.stats.ss],
      }));
    const fromSql = await withPerDocumentFile(rows, (file) =>
      readAggregates({ file, format: "jsonl", system: "system" }),
    );
    const fromCompare = await readAggregates({ file: written, system: "system" });
    expect(groups(fromSql).map((g) => g.system)).toEqual(["bm25", "tfidf", "tfidf - bm25"]);
    expect(groups(fromSql)).toEqual(groups(fromCompare));
    const bad = ragci(["sql", ...sqlArgs.slice(1, -1), "--intersect"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "ragci: --intersect goes with --pair (two systems joined on --query)\n",
    );
  });
});
