import { Readable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/io.js";
import { loadCensus } from "../../src/cli/loadCensus.js";
import { loadPairedInput } from "../../src/cli/loadPairedInput.js";
import { planStart } from "../../src/cli/loadPlanStart.js";
import { loadStrataCensus } from "../../src/cli/loadStrataCensus.js";
import { parseSystemOption } from "../../src/cli/systemFilter.js";
import type { DocumentStats } from "../../src/core/types.js";
import { startTestPostgres, type TestPostgres } from "../postgres/cluster.js";
import { loadExampleTable } from "../postgres/exampleTable.js";
import { EXAMPLE } from "./runCli.js";

const io: CommandIo = {
  stdin: Readable.from([]),
  color: false,
  progress: { enabled: false, update() {}, done() {} },
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

describe("the loaders of compare, plan, strata and simulate: --from (a real PostgreSQL) as the file", () => {
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

  it("loadPairedInput --from: the file's shape and tables, the pairs chosen by core's policy", async () => {
    const system = parseSystemOption("system");
    const db = await loadPairedInput(
      [],
      { ...from, doc: "doc_id", query: "query_id", replicates: 0 },
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
      loadPairedInput(
        [],
        { ...from, doc: "doc_id", baseline: "bm2", replicates: 0 },
        ["hit5"],
        system,
        null,
        io,
      ),
    ).rejects.toThrow(/no system "bm2" in the data \(systems: bm25, tfidf\)/);
  });

  it("loadCensus --from: one system's sums, or a pair's differences, as from the file", async () => {
    for (const systemText of ["system=tfidf", "system=bm25,tfidf"]) {
      const options = { doc: "doc_id", metric: ["hit5"], system: systemText, query: "query_id" };
      const db = await loadCensus(undefined, { ...from, ...options }, null, io);
      const file = await loadCensus(EXAMPLE, options, null, io);
      expect(plain(db.stats)).toEqual(plain(file.stats));
      expect([db.metric, db.system, db.pair, db.labels]).toEqual([
        file.metric,
        file.system,
        file.pair,
        file.labels,
      ]);
      // The report's census: the same but for where it came from (K rows, per-document).
      const { file: name, sha256, kind, ...rest } = db.description;
      const { file: _f, sha256: _s, kind: fileKind, ...fileRest } = file.description;
      expect(rest).toEqual(fileRest);
      expect([name, sha256, kind, fileKind]).toEqual([
        expect.stringMatching(/table covidqa_loaders$/),
        expect.stringMatching(/^[0-9a-f]{64}$/),
        "per-document",
        "per-query",
      ]);
    }
  });

  it("loadStrataCensus --from: the file's census, and the same messages for a missing or unnamed system", async () => {
    const options = { doc: "doc_id", metric: ["hit10"], system: "system=bm25" };
    const db = await loadStrataCensus(undefined, { ...from, ...options }, io);
    const file = await loadStrataCensus(EXAMPLE, options, io);
    expect(plain(db.stats)).toEqual(plain(file.stats));
    expect(db.metric).toBe(file.metric);
    expect(db.source).toMatch(
      /^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres table covidqa_loaders$/,
    );
    expect(await db.sha256()).toMatch(/^[0-9a-f]{64}$/);
    await expect(
      loadStrataCensus(undefined, { ...from, doc: "doc_id", metric: ["hit10"] }, io),
    ).rejects.toThrow(
      /table covidqa_loaders: 2 systems in column system \(bm25, tfidf\); strata uses one: pick it with --system system=bm25$/,
    );
    await expect(
      loadStrataCensus(undefined, { ...from, ...options, system: "system=bm26" }, io),
    ).rejects.toThrow(/no system "bm26" in column system \(found bm25, tfidf\)/);
  });

  it("planStart --from: the pilot's S and the census's M as from the file, the statement's digest as the source's", async () => {
    for (const systemText of ["system=bm25", "system=bm25,tfidf"]) {
      const options = {
        doc: "doc_id",
        metric: ["hit5"],
        system: systemText,
        query: "query_id",
        census: true,
      };
      const db = await planStart(undefined, { ...from, ...options }, io);
      const file = await planStart(EXAMPLE, options, io);
      expect(db.sd).toEqual(file.sd);
      expect(db.population).toBe(file.population);
      expect(plain(db.census as DocumentStats)).toEqual(plain(file.census as DocumentStats));
      const { file: name, sha256, ...source } = db.source as Record<string, unknown>;
      const { file: _f, sha256: _s, ...fileSource } = file.source as Record<string, unknown>;
      expect(source).toEqual(fileSource);
      expect(name).toMatch(/table covidqa_loaders$/);
      expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    await expect(planStart(undefined, { ...from, metric: ["hit5"], sd: 0.3 }, io)).rejects.toThrow(
      "give either --from or --sd, not both",
    );
  });
});
