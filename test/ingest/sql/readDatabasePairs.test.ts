import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentStats } from "../../../src/core/types.js";
import { readPairedAggregates, readPairedResults } from "../../../src/ingest/index.js";
import { pairedAggregateGroups } from "../../../src/ingest/readPairedAggregates.js";
import type { PairedTable } from "../../../src/ingest/readPairedResults.js";
import { readDatabase, readDatabasePairs } from "../../../src/ingest/sql/readDatabase.js";
import { writeAggregates } from "../../../src/ingest/writeAggregates.js";
import { EXAMPLE, scratchDir } from "../../cli/runCli.js";
import { startTestPostgres, type TestPostgres } from "../../postgres/cluster.js";
import { loadExampleTable, loadScoreTable } from "../../postgres/exampleTable.js";
import { plainStats as plain } from "../../support/plainStats.js";

const dir = scratchDir();

/**
 * Two systems on nine queries: Unicode document and system names, a comma in an id, ties
 * (equal values of both systems), values near 10¹² (whose squares overflow DECIMAL(38, 18), so
 * the file path adds doubles), and real values whose decimal and binary sums differ.
 */
const TRICKY = [
  "doc_id,query_id,system,score",
  ...[
    ["Ärzte-Übersicht", "q1", "0.5", "0.5"],
    ["Ärzte-Übersicht", "q2", "0.5", "0.75"],
    ["文書", "q3", "1099511627776", "1099511627776"],
    ["文書", "q4", "2199023255552", "1"],
    ["文書", "q5", "0.25", "0.25"],
    ['"d,comma"', "q6", "0.1", "0.1"],
    ['"d,comma"', "q7", "0.2", "0.7"],
    ["😀", "q8", "0.3333333333333333", "0.3333333333333333"],
    ["😀", "q9", "0", "1"],
  ].flatMap(([doc, q, a, b]) => [`${doc},${q},a,${a}`, `${doc},${q},Übersicht-β,${b}`]),
].join("\n");

/** Every per-document table of a paired read (each system's and each difference's), by name. */
function tables(t: PairedTable) {
  return [
    ...t.perSystem.map((p) => ({ name: `${p.system}/${p.metric}`, stats: plain(p.stats) })),
    ...t.differences.map((d) => ({ name: `${d.b} - ${d.a}/${d.metric}`, stats: plain(d.stats) })),
  ].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/**
 * PostgreSQL adds each double's shortest decimal exactly, the file path each double rounded to
 * 18 decimals (or, past DECIMAL(38, 18), doubles in query order): the same documents, counts,
 * ranges and whole-number sums; real-valued sums to that rounding (n · 0.5·10⁻¹⁸) plus 1 ulp.
 * (What --intersect dropped, and how many queries of a score differ, are not in a written
 * table; they are compared with the direct read where they are known.)
 */
function expectSamePairs(actual: PairedTable, expected: PairedTable): void {
  expect(actual.systems).toEqual(expected.systems);
  expect(actual.queries).toBe(expected.queries);
  const a = tables(actual);
  const e = tables(expected);
  expect(a.map((t) => [t.name, t.stats.ids, t.stats.n, t.stats.min, t.stats.max])).toEqual(
    e.map((t) => [t.name, t.stats.ids, t.stats.n, t.stats.min, t.stats.max]),
  );
  a.forEach((t, i) => {
    const want = (e[i] as (typeof e)[number]).stats;
    for (const key of ["s", "ss"] as const) {
      t.stats[key].forEach((x, d) => {
        const y = want[key][d] as number;
        if (Number.isInteger(y)) expect(x, `${t.name} ${key}[${d}]`).toBe(y);
        else
          expect(Math.abs(x - y), `${t.name} ${key}[${d}]`).toBeLessThanOrEqual(
            2 ** -51 * Math.abs(y) + (t.stats.n[d] as number) * 0.5e-18,
          );
      });
    }
  });
}

/** The file path: compare's pairing of a CSV, written with --write-aggregates and read back. */
async function filePairs(
  file: string,
  metrics: string[],
  pairs: [string, string][],
  intersect = false,
): Promise<{ direct: PairedTable; written: PairedTable }> {
  const direct = await readPairedResults({
    inputs: [{ path: file, displayName: file }],
    doc: "doc_id",
    system: "system",
    query: "query_id",
    metrics,
    pairs: () => pairs,
    intersect,
  });
  const path = join(dir, `written-${Math.random().toString(36).slice(2)}.parquet`);
  await writeAggregates(path, pairedAggregateGroups(direct), null);
  const written = await readPairedAggregates({
    file: path,
    displayName: path,
    format: null,
    doc: null,
    system: null,
    onlySystems: null,
    metrics,
    documentLabel: null,
    pairs: () => pairs,
  });
  return { direct, written };
}

describe("readDatabasePairs: a paired comparison computed inside a real PostgreSQL", () => {
  let server: TestPostgres;
  let client: pg.Client;
  const trickyCsv = join(dir, "tricky-pairs.csv");
  const env = {};
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await loadExampleTable(client, "covidqa_pairs");
    writeFileSync(trickyCsv, `${TRICKY}\n`);
    await loadScoreTable(client, "tricky_pairs", trickyCsv);
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it("the example: each system's and the difference's per-document table, as compare --write-aggregates writes it", async () => {
    const pairs: [string, string][] = [["bm25", "tfidf"]];
    const read = await readDatabasePairs({
      url: server.url,
      env,
      source: { table: "covidqa_pairs" },
      doc: "doc_id",
      metrics: ["hit5", "rr"],
      system: "system",
      query: "query_id",
      pairs: () => pairs,
    });
    // 2,760 rows stay in PostgreSQL; K = 98 rows per table come back: 2 systems + 1 difference,
    // 2 metrics.
    expect(read.rowsReturned).toBe(98 * 3 * 2);
    expect(read.warehouse).toBe("postgres");
    expect(read.name).toMatch(
      /^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres table covidqa_pairs$/,
    );
    const { direct, written } = await filePairs(EXAMPLE, ["hit5", "rr"], pairs);
    expectSamePairs(read.table, written);
    expectSamePairs(read.table, direct);
    // hit5 is 0/1: every table bit for bit, and the differing queries counted as the file path does.
    const hits = (t: PairedTable) => tables(t).filter((x) => x.name.endsWith("/hit5"));
    expect(hits(read.table)).toEqual(hits(direct));
    expect(read.table.differences[0]?.queriesDiffering).toBe(
      direct.differences[0]?.queriesDiffering,
    );
  });

  it("Unicode ids and systems, ties and values near 10¹²: the file path's table (the same query order of the systems)", async () => {
    const pairs: [string, string][] = [["a", "Übersicht-β"]];
    const read = await readDatabasePairs({
      url: server.url,
      env,
      source: { sql: "SELECT * FROM tricky_pairs" },
      metrics: ["score"],
      system: "system",
      pairs: () => pairs,
    });
    const { direct, written } = await filePairs(trickyCsv, ["score"], pairs);
    expect(direct.summation).toBe("double-query-order");
    expectSamePairs(read.table, written);
    expectSamePairs(read.table, direct);
    const difference = read.table.differences[0] as PairedTable["differences"][number];
    expect(difference.stats.ids).toEqual(["d,comma", "Ärzte-Übersicht", "文書", "😀"]);
    // Ties: 文書's q3 and q5 differ by 0, q4 by 1 − 2⁴¹ (exact in numeric and in doubles).
    expect(difference.stats.s[2]).toBe(1 - 2199023255552);
    expect(difference.stats.ss[2]).toBe((1 - 2199023255552) ** 2);
  });

  it("a query of one system only fails with ragci's message; --intersect keeps the common queries as the file path does", async () => {
    await client.query("DROP TABLE IF EXISTS gappy");
    await client.query(
      "CREATE TABLE gappy AS SELECT * FROM tricky_pairs WHERE NOT (system = 'a' AND query_id IN ('q2', 'q9')) AND NOT (system <> 'a' AND query_id = 'q4')",
    );
    const gappyCsv = join(dir, "gappy.csv");
    const lines = TRICKY.split("\n");
    writeFileSync(
      gappyCsv,
      `${[lines[0], ...lines.slice(1).filter((l) => !/,q[29],a,/.test(l) && !/,q4,Übersicht/.test(l))].join("\n")}\n`,
    );
    const pairs: [string, string][] = [["a", "Übersicht-β"]];
    const options = {
      url: server.url,
      env,
      source: { table: "gappy" },
      metrics: ["score"],
      system: "system",
      pairs: () => pairs,
    };
    await expect(readDatabasePairs(options)).rejects.toThrow(
      /table gappy: 3 queries have a result for some of the systems \(a, Übersicht-β\) but not all; each query needs a result from every system$/,
    );
    const read = await readDatabasePairs({ ...options, intersect: true });
    const { direct, written } = await filePairs(gappyCsv, ["score"], pairs, true);
    expect(direct.dropped).toEqual({ a: 1, "Übersicht-β": 2 });
    expect(read.table.dropped).toEqual(direct.dropped);
    expectSamePairs(read.table, { ...written, dropped: direct.dropped });
    expectSamePairs(read.table, direct);
    // No query common to both: nothing to compare, said by the check in PostgreSQL.
    await client.query("DROP TABLE IF EXISTS disjoint");
    await client.query(
      "CREATE TABLE disjoint AS SELECT * FROM tricky_pairs WHERE (system = 'a') = (query_id < 'q5')",
    );
    await expect(
      readDatabasePairs({ ...options, source: { table: "disjoint" }, intersect: true }),
    ).rejects.toThrow(
      /table disjoint: 0 queries have a result for every system \(a, Übersicht-β\); nothing to compare$/,
    );
  });

  it("refuses NULL metrics, a query under two documents, a repeated query and a system not there (one line each)", async () => {
    await client.query("DROP TABLE IF EXISTS bad_pairs");
    await client.query("CREATE TABLE bad_pairs AS SELECT * FROM tricky_pairs");
    await client.query("UPDATE bad_pairs SET score = NULL WHERE query_id = 'q5'");
    const base = {
      url: server.url,
      env,
      metrics: ["score"],
      system: "system",
      pairs: () => [["a", "Übersicht-β"]] as const,
    };
    await expect(readDatabasePairs({ ...base, source: { table: "bad_pairs" } })).rejects.toThrow(
      /table bad_pairs: 2 rows have score NULL, NaN or infinite; every result needs a finite value$/,
    );
    const split =
      "SELECT CASE WHEN query_id = 'q1' AND system = 'a' THEN '文書' ELSE doc_id END AS doc_id, query_id, system, score FROM tricky_pairs";
    await expect(readDatabasePairs({ ...base, source: { sql: split } })).rejects.toThrow(
      /\(`sql`\): 1 queries are under two documents; a query belongs to one document$/,
    );
    const twice =
      "SELECT * FROM tricky_pairs UNION ALL SELECT * FROM tricky_pairs WHERE query_id = 'q3'";
    await expect(readDatabasePairs({ ...base, source: { sql: twice } })).rejects.toThrow(
      /\(`sql`\): 2 queries appear more than once for a system in query_id/,
    );
    await expect(
      readDatabasePairs({ ...base, source: { table: "tricky_pairs" }, systems: ["a", "c"] }),
    ).rejects.toThrow(
      /table tricky_pairs: no system "c" in column system \(kept a\); check the names after "="$/,
    );
    await expect(
      readDatabasePairs({
        ...base,
        source: { table: "tricky_pairs" },
        pairs: () => [["zz", "a"]] as const,
      }),
    ).rejects.toThrow(/no system "zz" in the data \(systems: a, Übersicht-β\)/);
  });

  it("refuses ids made of tabs, no-break spaces or newlines, as the files and JavaScript do (rowRules.ts)", async () => {
    // q1–q4's documents blank for system a (two tabs, a no-break space, CR LF, a space and an
    // ideographic space); q5's a zero-width space, which is not blank (nor in JavaScript).
    const blank =
      "SELECT CASE WHEN system <> 'a' THEN doc_id WHEN query_id = 'q1' THEN chr(9) || chr(9) WHEN query_id = 'q2' THEN chr(160) WHEN query_id = 'q3' THEN chr(13) || chr(10) WHEN query_id = 'q4' THEN ' ' || chr(12288) WHEN query_id = 'q5' THEN chr(8203) ELSE doc_id END AS doc_id, query_id, system, score FROM tricky_pairs";
    const expected = TRICKY.split("\n")
      .slice(1)
      .filter((line) => /^[^,]*,q[1-4],a,/.test(line)).length;
    expect(expected).toBeGreaterThan(0);
    await expect(
      readDatabase({
        url: server.url,
        env,
        metrics: ["score"],
        system: "system",
        source: { sql: blank },
      }),
    ).rejects.toThrow(
      new RegExp(
        `\\(\`sql\`\\): ${expected} rows have no doc_id \\(NULL or empty\\); every row needs a document id$`,
      ),
    );
  });

  it("a single system's table (readDatabase) is the file path's too, on the same rows", async () => {
    const read = await readDatabase({
      url: server.url,
      env,
      source: { table: "tricky_pairs" },
      metrics: ["score"],
      system: "system",
      systems: ["Übersicht-β"],
    });
    const { direct } = await filePairs(trickyCsv, ["score"], [["a", "Übersicht-β"]]);
    const own = direct.perSystem.find(
      (p) => p.system === "Übersicht-β",
    ) as PairedTable["perSystem"][number];
    const group = read.table.groups[0];
    expect(read.table.groups).toHaveLength(1);
    expect(group?.system).toBe("Übersicht-β");
    expect(plain(group?.stats as DocumentStats).ids).toEqual(plain(own.stats).ids);
    expect(plain(group?.stats as DocumentStats).n).toEqual(plain(own.stats).n);
  });
});
