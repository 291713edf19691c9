import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentStats } from "../../src/core/types.js";
import {
  type DatabaseSource,
  parseSystemSelection,
  readPlanStart,
  readSource,
} from "../../src/ingest/index.js";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { loadExampleTable } from "../postgres/exampleTable.js";
import { EXAMPLE } from "./runCli.js";

/** 0/1 metrics: the per-document sums are whole numbers, so the tables agree bit for bit. */
const plain = (s: DocumentStats) => ({
  ids: [...s.ids],
  n: [...s.n],
  s: [...s.s],
  ss: [...s.ss],
  min: s.min,
  max: s.max,
});

describe("readSource's pairs and one-system reads, and plan's start: a database (a real PostgreSQL) as the file", () => {
  let server: TestPostgres;
  let client: pg.Client;
  let db: DatabaseSource;
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await loadExampleTable(client, "covidqa_loaders");
    db = { url: server.url, table: "covidqa_loaders", env: {}, doc: "doc_id", query: "query_id" };
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it("readSource pairs: a database read as the file, the pairs chosen by core's policy", async () => {
    const selection = { ...parseSystemSelection("system"), metrics: ["hit5", "hit10"] };
    const fromDb = await readSource(db, selection, { read: "pairs" });
    const file = await readSource(
      { files: [EXAMPLE], doc: "doc_id", query: "query_id" },
      selection,
      { read: "pairs" },
    );
    expect(fromDb.mode).toBe(file.mode);
    expect(fromDb.table.systems).toEqual(file.table.systems);
    expect(fromDb.table.queries).toBe(file.table.queries);
    expect(fromDb.table.dropped).toEqual(file.table.dropped);
    const tables = (t: typeof fromDb.table) =>
      [
        ...t.perSystem.map((p) => [`${p.system}/${p.metric}`, plain(p.stats)] as const),
        ...t.differences.map(
          (d) => [`${d.b} - ${d.a}/${d.metric}`, plain(d.stats), d.queriesDiffering] as const,
        ),
      ].sort((x, y) => (x[0] < y[0] ? -1 : 1));
    expect(tables(fromDb.table)).toEqual(tables(file.table));
    expect(fromDb.inputs).toEqual([
      expect.objectContaining({ format: "postgres", kind: "per-document", rows: 98 * 3 * 2 }),
    ]);
    // More than two systems need a policy; a misspelt baseline is named.
    await expect(
      readSource(
        db,
        { ...selection, metrics: ["hit5"], pairs: { baseline: "bm2" } },
        { read: "pairs" },
      ),
    ).rejects.toThrow(/no system "bm2" in the data \(systems: bm25, tfidf\)/);
  });

  it("readSource one: one system's sums, or a pair's differences, as from the file", async () => {
    for (const systemText of ["system=tfidf", "system=bm25,tfidf"]) {
      const selection = { ...parseSystemSelection(systemText), metrics: ["hit5"] };
      const options = { read: "one", usedBy: "simulate" } as const;
      const fromDb = await readSource(db, selection, options);
      const file = await readSource(
        { files: [EXAMPLE], doc: "doc_id", query: "query_id" },
        selection,
        options,
      );
      expect(plain(fromDb.stats)).toEqual(plain(file.stats));
      expect([fromDb.metric, fromDb.system, fromDb.pair, fromDb.labels]).toEqual([
        file.metric,
        file.system,
        file.pair,
        file.labels,
      ]);
      // Where it came from: the statement's digest, K rows (per-document).
      expect(fromDb.description).toEqual({
        file: expect.stringMatching(/table covidqa_loaders$/),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        format: "postgres",
        kind: "per-document",
      });
      expect(file.description).toEqual({
        file: EXAMPLE,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        format: "csv",
        kind: "per-query",
      });
    }
  });

  it("readSource one of one system (strata): the file's census, and the same messages for a missing or unnamed system", async () => {
    const selection = { ...parseSystemSelection("system=bm25"), metrics: ["hit10"] };
    const options = { read: "one", usedBy: "strata", allowPair: false, hash: false } as const;
    const fromDb = await readSource(db, selection, options);
    const file = await readSource({ files: [EXAMPLE], doc: "doc_id" }, selection, options);
    expect(plain(fromDb.stats)).toEqual(plain(file.stats));
    expect(fromDb.metric).toBe(file.metric);
    expect(fromDb.description.file).toMatch(
      /^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres table covidqa_loaders$/,
    );
    expect(fromDb.description.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file.description.sha256).toBeNull();
    await expect(readSource(db, { metrics: ["hit10"] }, options)).rejects.toThrow(
      /table covidqa_loaders: 2 systems in column system \(bm25, tfidf\); strata uses one: pick it with `system` system=bm25$/,
    );
    await expect(
      readSource(db, { ...parseSystemSelection("system=bm26"), metrics: ["hit10"] }, options),
    ).rejects.toThrow(/no system "bm26" in column system \(found bm25, tfidf\)/);
    await expect(
      readSource(db, { ...parseSystemSelection("system=bm25,tfidf"), metrics: ["hit10"] }, options),
    ).rejects.toThrow(/^`system` system=bm25,tfidf: strata uses one system \(COL=NAME\)$/);
  });

  it("readPlanStart from a database: the pilot's S and the census's M as from the file, the statement's digest as the source's", async () => {
    const files = { files: [EXAMPLE], doc: "doc_id", query: "query_id" };
    for (const system of ["system=bm25", "system=bm25,tfidf"]) {
      const selection = { ...parseSystemSelection(system), metrics: ["hit5"] };
      const fromDb = await readPlanStart(db, selection, { system, census: true });
      const file = await readPlanStart(files, selection, { system, census: true });
      expect(fromDb.sd).toEqual(file.sd);
      expect(fromDb.population).toBe(file.population);
      expect(plain(fromDb.census as DocumentStats)).toEqual(plain(file.census as DocumentStats));
      const { file: name, sha256, ...source } = fromDb.source as Record<string, unknown>;
      const { file: _f, sha256: _s, ...fileSource } = file.source as Record<string, unknown>;
      expect(source).toEqual(fileSource);
      expect(name).toMatch(/table covidqa_loaders$/);
      expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    await expect(readPlanStart(db, { metrics: ["hit5"] }, { sd: 0.3 })).rejects.toThrow(
      "give either `url` or `sd`, not both",
    );
  });
});
