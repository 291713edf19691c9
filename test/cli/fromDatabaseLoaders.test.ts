import { Readable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/io.js";
import { loadCensus } from "../../src/cli/loadCensus.js";
import {
  loadCensusFromDatabase,
  loadPairedFromDatabase,
  planStartFromDatabase,
  readOneSystemFromDatabase,
} from "../../src/cli/loadFromDatabase.js";
import { loadPairedInput } from "../../src/cli/loadPairedInput.js";
import { planStartFromFile } from "../../src/cli/loadPlanStart.js";
import { parseSystemOption } from "../../src/cli/systemFilter.js";
import type { DocumentStats } from "../../src/core/types.js";
import { readOneSystem } from "../../src/ingest/readOneSystem.js";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { loadExampleTable } from "../postgres/exampleTable.js";
import { EXAMPLE } from "./runCli.js";

const io: CommandIo = {
  stdin: Readable.from([]),
  color: false,
  progress: { update() {}, done() {} },
  version: "test",
  stdout: () => {},
};

/** 0/1 metrics: the per-document sums are whole numbers, so the tables agree bit for bit. */
const plain = (s: DocumentStats) => ({
  ids: [...s.ids],
  n: [...s.n],
  s: [...s.s],
  ss: [...s.ss],
  min: s.min,
  max: s.max,
});

describe("the --from readers compare, plan, strata and simulate will call (a real PostgreSQL)", () => {
  let server: TestPostgres;
  let client: pg.Client;
  let from: { from: string; table: string };
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await loadExampleTable(client, "covidqa_loaders");
    from = { from: server.url, table: "covidqa_loaders" };
  });
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it("loadPairedFromDatabase: loadPairedInput's shape and tables, the pairs chosen by core's policy", async () => {
    const system = parseSystemOption("system");
    const db = await loadPairedFromDatabase(
      { ...from, doc: "doc_id", query: "query_id" },
      ["hit5", "hit10"],
      system,
      null,
      io,
    );
    const file = await loadPairedInput(
      [EXAMPLE],
      { doc: "doc_id", query: "query_id", replicates: 0 },
      ["hit5", "hit10"],
      system,
      null,
      io,
    );
    expect(db.mode).toBe(file.mode);
    expect(db.table.systems).toEqual(file.table.systems);
    expect(db.table.queries).toBe(file.table.queries);
    expect(db.table.dropped).toEqual(file.table.dropped);
    const tables = (t: typeof db.table) =>
      [
        ...t.perSystem.map((p) => [`${p.system}/${p.metric}`, plain(p.stats)] as const),
        ...t.differences.map(
          (d) => [`${d.b} - ${d.a}/${d.metric}`, plain(d.stats), d.queriesDiffering] as const,
        ),
      ].sort((x, y) => (x[0] < y[0] ? -1 : 1));
    expect(tables(db.table)).toEqual(tables(file.table));
    expect(db.inputs).toEqual([
      expect.objectContaining({ format: "postgres", kind: "per-document", rows: 98 * 3 * 2 }),
    ]);
    // More than two systems need a policy; a misspelt baseline is named.
    await expect(
      loadPairedFromDatabase(
        { ...from, doc: "doc_id", baseline: "bm2" },
        ["hit5"],
        system,
        null,
        io,
      ),
    ).rejects.toThrow(/no system "bm2" in the data \(systems: bm25, tfidf\)/);
  });

  it("loadCensusFromDatabase: one system's sums, or a pair's differences, as loadCensus", async () => {
    for (const systemText of ["system=tfidf", "system=bm25,tfidf"]) {
      const options = { doc: "doc_id", metric: ["hit5"], system: systemText, query: "query_id" };
      const db = await loadCensusFromDatabase({ ...from, ...options }, null);
      const file = await loadCensus(EXAMPLE, options, null);
      expect(plain(db.stats)).toEqual(plain(file.stats));
      expect([db.metric, db.system, db.pair, db.labels]).toEqual([
        file.metric,
        file.system,
        file.pair,
        file.labels,
      ]);
    }
    await expect(
      loadCensusFromDatabase({ ...from, metric: ["hit5"], system: "system" }, "topic"),
    ).rejects.toThrow(/--from does not read a two-stage study's units yet/);
  });

  it("readOneSystemFromDatabase: strata's census, and the same messages for a missing or unnamed system", async () => {
    const db = await readOneSystemFromDatabase(
      { ...from, doc: "doc_id", metric: ["hit10"], system: "system=bm25" },
      "strata",
    );
    const file = await readOneSystem(
      { file: EXAMPLE, doc: "doc_id", metric: ["hit10"] },
      { column: "system", value: "bm25" },
      "strata",
    );
    expect(plain(db.stats)).toEqual(plain(file.stats));
    expect(db.systemsInFile).toBe(file.systemsInFile);
    await expect(
      readOneSystemFromDatabase({ ...from, doc: "doc_id", metric: ["hit10"] }, "strata"),
    ).rejects.toThrow(
      /table covidqa_loaders: 2 systems in column system \(bm25, tfidf\); strata uses one: pick it with --system system=bm25$/,
    );
    await expect(
      readOneSystemFromDatabase(
        { ...from, doc: "doc_id", metric: ["hit10"], system: "system=bm26" },
        "strata",
      ),
    ).rejects.toThrow(/no system "bm26" in column system \(found bm25, tfidf\)/);
  });

  it("planStartFromDatabase: the pilot's S and the census's M as planStartFromFile, the statement's digest as the source's", async () => {
    for (const systemText of ["system=bm25", "system=bm25,tfidf"]) {
      const options = {
        doc: "doc_id",
        metric: ["hit5"],
        system: systemText,
        query: "query_id",
        census: true,
      };
      const db = await planStartFromDatabase({ ...from, ...options }, io);
      const file = await planStartFromFile(EXAMPLE, options, io);
      expect(db.sd).toEqual(file.sd);
      expect(db.population).toBe(file.population);
      expect(plain(db.census as DocumentStats)).toEqual(plain(file.census as DocumentStats));
      const { file: name, sha256, ...source } = db.source as Record<string, unknown>;
      const { file: _f, sha256: _s, ...fileSource } = file.source as Record<string, unknown>;
      expect(source).toEqual(fileSource);
      expect(name).toMatch(/table covidqa_loaders$/);
      expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    await expect(planStartFromDatabase({ ...from, metric: ["hit5"], sd: 0.3 }, io)).rejects.toThrow(
      "give either --from or --sd, not both",
    );
  });
});
