import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, it } from "vitest";
import { isRagciError } from "../../../src/core/errors.js";
import type { FacetCells } from "../../../src/core/facets/facetCells.js";
import { readSource } from "../../../src/index.js";
import { scratchDir } from "../../cli/runCli.js";

/** A row of the generated per-trial file. */
interface Row {
  system: string;
  doc: string;
  query: string;
  epoch: number;
  judge: string;
  variant: string;
  score: number;
}

/** A seeded generator (mulberry32), so the file is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 2 systems × 7 documents × 1–3 queries × 2 judges × 2 variants × 3 epochs of a graded score,
 * with judge B skipping every fifth query (unbalanced), written as CSV.
 */
function generated(): { rows: Row[]; file: string } {
  const next = random(28);
  const rows: Row[] = [];
  for (const system of ["bm25", "tfidf"])
    for (let d = 0; d < 7; d++) {
      const queries = 1 + (d % 3);
      for (let q = 0; q < queries; q++)
        for (const judge of ["A", "B"]) {
          if (judge === "B" && (d * 3 + q) % 5 === 0) continue;
          for (const variant of ["plain", "polite"])
            for (let epoch = 1; epoch <= 3; epoch++)
              rows.push({
                system,
                doc: `doc${d}`,
                query: `d${d}q${q}`,
                epoch,
                judge,
                variant,
                score: Math.round(next() * 1000) / 100,
              });
        }
    }
  const file = join(scratchDir(), "trials.csv");
  const header = "system,doc_id,query_id,epoch,judge,variant,score";
  const lines = rows.map((r) =>
    [r.system, r.doc, r.query, r.epoch, r.judge, r.variant, r.score].join(","),
  );
  writeFileSync(file, `${[header, ...lines].join("\n")}\n`);
  return { rows, file };
}

/** The cells recomputed from the rows: n, Σx and Σ(x − x̄)² by (document, query, judge, variant). */
function recomputed(rows: readonly Row[], system: string) {
  const cells = new Map<string, number[]>();
  for (const r of rows) {
    if (r.system !== system) continue;
    const key = JSON.stringify([r.doc, r.query, r.judge, r.variant]);
    cells.set(key, [...(cells.get(key) ?? []), r.score]);
  }
  return new Map(
    [...cells].map(([key, values]) => {
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const within = values.reduce((t, x) => t + (x - mean) ** 2, 0);
      return [key, { n: values.length, sum: mean * values.length, within }];
    }),
  );
}

/** The cells as the same keys, decoded through their labels. */
function decoded(cells: FacetCells, queryOf: (d: string, q: number) => string) {
  const out = new Map<string, { n: number; sum: number; within: number }>();
  for (let i = 0; i < cells.n.length; i++) {
    const doc = cells.labels.documents[cells.document[i] as number] as string;
    const judge = cells.labels.judges?.[cells.judge?.[i] as number] as string;
    const variant = cells.labels.variants?.[cells.variant?.[i] as number] as string;
    out.set(JSON.stringify([doc, queryOf(doc, cells.query[i] as number), judge, variant]), {
      n: cells.n[i] as number,
      sum: cells.sum[i] as number,
      within: cells.withinSumOfSquares[i] as number,
    });
  }
  return out;
}

describe("facets in the input: per-cell sums (trial, judge, variant columns)", () => {
  const { rows, file } = generated();

  it("gives each system's cells, equal to a recomputation from the raw rows", async () => {
    const [read] = await readSource(
      { files: [file], trial: "epoch", judge: "judge", variant: "variant" },
      { systemColumn: "system", metrics: ["score"] },
      { read: "tables" },
    );
    expect(read?.cells?.map((c) => c.system)).toEqual(["bm25", "tfidf"]);
    for (const system of ["bm25", "tfidf"]) {
      const cells = read?.cells?.find((c) => c.system === system)?.cells as FacetCells;
      // Query codes are numbered across documents in (document, query id) order.
      const queryIds = [...new Set(rows.filter((r) => r.system === system).map((r) => r.query))]
        .map((q) => ({ q, d: rows.find((r) => r.query === q)?.doc as string }))
        .sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : a.q < b.q ? -1 : a.q > b.q ? 1 : 0))
        .map((x) => x.q);
      const got = decoded(cells, (_, q) => queryIds[q] as string);
      const want = recomputed(rows, system);
      expect(got.size).toBe(want.size);
      for (const [key, w] of want) {
        const g = got.get(key);
        expect(g?.n, key).toBe(w.n);
        expect(Math.abs((g?.sum as number) - w.sum)).toBeLessThan(1e-12);
        expect(Math.abs((g?.within as number) - w.within)).toBeLessThan(1e-12);
      }
      expect(cells.labels.judges).toEqual(["A", "B"]);
      expect(cells.labels.variants).toEqual(["plain", "polite"]);
    }
    // Judge B skips some queries: their (query, judge, variant) cells are counted as missing.
    const queries = new Set(rows.map((r) => r.query)).size;
    const present = recomputed(rows, "bm25").size;
    expect(read?.table.notices).toContain(
      `${file} (system bm25): ${queries * 4 - present} of ${queries * 4} (query, judge, variant) cells have no result; the judges and variants are unbalanced, which the decomposition allows`,
    );
    expect(read?.description.rows).toBe(rows.length);
  });

  it("averages each query over its trials, judges and variants for the per-document tables", async () => {
    const [read] = await readSource(
      { files: [file], trial: "epoch", judge: "judge", variant: "variant" },
      { systemColumn: "system", metrics: ["score"] },
      { read: "tables" },
    );
    const group = read?.table.groups.find((g) => g.system === "tfidf");
    const perQuery = new Map<string, { doc: string; values: number[] }>();
    for (const r of rows.filter((x) => x.system === "tfidf")) {
      const entry = perQuery.get(r.query) ?? { doc: r.doc, values: [] };
      entry.values.push(r.score);
      perQuery.set(r.query, entry);
    }
    const perDoc = new Map<string, { n: number; s: number }>();
    for (const { doc, values } of perQuery.values()) {
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const d = perDoc.get(doc) ?? { n: 0, s: 0 };
      perDoc.set(doc, { n: d.n + 1, s: d.s + mean });
    }
    const stats = group?.stats;
    expect(stats?.ids).toEqual([...perDoc.keys()].sort());
    stats?.ids.forEach((id, d) => {
      expect(stats.n[d]).toBe(perDoc.get(id)?.n);
      expect(Math.abs((stats.s[d] as number) - (perDoc.get(id)?.s as number))).toBeLessThan(1e-9);
    });
  });

  it("gives each compared system's cells in a paired read, the pairing on the averaged queries", async () => {
    const source = { files: [file], trial: "epoch", judge: "judge", variant: "variant" };
    const selection = { systemColumn: "system", metrics: ["score"] };
    const pairs = await readSource(source, selection, { read: "pairs" });
    const [tables] = await readSource(source, selection, { read: "tables" });
    expect(pairs.cells?.map((c) => c.system)).toEqual(["bm25", "tfidf"]);
    for (const system of ["bm25", "tfidf"]) {
      const paired = pairs.cells?.find((c) => c.system === system)?.cells;
      const alone = tables?.cells?.find((c) => c.system === system)?.cells;
      expect(paired?.sum).toEqual(alone?.sum);
      expect(paired?.withinSumOfSquares).toEqual(alone?.withinSumOfSquares);
      // Every query is in both systems, so the paired per-system sums are the tables' own.
      const stats = pairs.table.perSystem.find((p) => p.system === system)?.stats;
      const table = tables?.table.groups.find((g) => g.system === system)?.stats;
      expect(stats?.n).toEqual(table?.n);
      expect(stats?.s).toEqual(table?.s);
    }
    expect(pairs.inputs[0]?.rows).toBe(rows.length);
  });

  it("gives one system's cells in a read of one system (a plan's pilot)", async () => {
    const source = { files: [file], trial: "epoch", judge: "judge", variant: "variant" };
    const selection = { systemColumn: "system", systems: ["tfidf"], metrics: ["score"] };
    const one = await readSource(source, selection, { read: "one", usedBy: "plan" });
    const [tables] = await readSource(source, selection, { read: "tables" });
    expect(one.cells?.map((c) => c.system)).toEqual(["tfidf"]);
    expect(one.cells?.[0]?.cells.sum).toEqual(tables?.cells?.[0]?.cells.sum);
    expect(one.stats.s).toEqual(tables?.table.groups[0]?.stats.s);
  });

  it("refuses a (system, document, query, trial, judge, variant) given twice", async () => {
    const twice = join(scratchDir(), "twice.csv");
    writeFileSync(
      twice,
      "system,doc_id,query_id,epoch,judge,score\nbm25,d1,q1,1,A,1\nbm25,d1,q1,2,A,0\nbm25,d1,q1,2,A,1\n",
    );
    const error = await readSource(
      { files: [twice], trial: "epoch", judge: "judge" },
      { systemColumn: "system", metrics: ["score"] },
      { read: "tables" },
    ).catch((e: unknown) => e);
    expect(isRagciError(error)).toBe(true);
    expect(String((error as Error).message)).toBe(
      `${twice}: system bm25, document d1, query q1, judge A has 3 rows but 2 distinct trials in column epoch (a trial twice, or one without a label); each (system, document, query, trial, judge, variant) is one result`,
    );
  });

  it("refuses a repeated trial alike whether the labels are integers close together, far apart (counted again by label) or text", async () => {
    for (const [first, second] of [
      ["1", "2"],
      ["1", "5000"],
      ["-9223372036854775808", "9223372036854775807"],
      ["run 1", "run 2"],
    ]) {
      const twice = join(scratchDir(), "twice.csv");
      writeFileSync(
        twice,
        `system,doc_id,query_id,epoch,judge,score\nbm25,d0,q0,${first},A,1\nbm25,d0,q0,${second},A,0\nbm25,d1,q1,${first},A,1\nbm25,d1,q1,${second},A,0\nbm25,d1,q1,${second},A,1\n`,
      );
      const error = await readSource(
        { files: [twice], trial: "epoch", judge: "judge" },
        { systemColumn: "system", metrics: ["score"] },
        { read: "tables" },
      ).catch((e: unknown) => e);
      expect(isRagciError(error), first).toBe(true);
      expect(String((error as Error).message), first).toBe(
        `${twice}: system bm25, document d1, query q1, judge A has 3 rows but 2 distinct trials in column epoch (a trial twice, or one without a label); each (system, document, query, trial, judge, variant) is one result`,
      );
    }
  });

  it("reads the same cells from integer trials close together, far apart and as text", async () => {
    const sums: number[][] = [];
    for (const label of [
      (e: number) => `${e}`,
      (e: number) => `${e * 1000}`,
      (e: number) => `run ${e}`,
    ]) {
      const path = join(scratchDir(), "relabelled.csv");
      writeFileSync(
        path,
        [
          "doc_id,query_id,epoch,score",
          ...[1, 2, 3].flatMap((e) => [`d1,q1,${label(e)},${e}`, `d2,q2,${label(e)},${e * e}`]),
        ].join("\n"),
      );
      const [read] = await readSource({ files: [path], trial: "epoch" }, {}, { read: "tables" });
      const cells = read?.cells?.[0]?.cells as FacetCells;
      expect([...cells.n]).toEqual([3, 3]);
      sums.push([...cells.sum]);
    }
    expect(sums).toEqual([
      [6, 14],
      [6, 14],
      [6, 14],
    ]);
  });

  it("refuses an infinite or NaN value naming its cell, as an empty one (the cells' finite check, as a database's)", async () => {
    for (const value of ["inf", "nan", "-inf", ""]) {
      const file = join(scratchDir(), "notFinite.csv");
      writeFileSync(file, `doc_id,query_id,judge,score\nd1,q1,A,1\nd1,q1,B,${value}\nd2,q2,A,1\n`);
      const error = await readSource(
        { files: [file], judge: "judge" },
        { metrics: ["score"] },
        { read: "tables" },
      ).catch((e: unknown) => e);
      expect(isRagciError(error), value).toBe(true);
      expect(String((error as Error).message), value).toBe(
        `${file}: document d1, query q1, judge B has a metric value that is empty, not a number or infinite; every result needs a finite value`,
      );
    }
  });

  it("refuses reruns of a query when no trial column is named, naming `trial`", async () => {
    const reruns = join(scratchDir(), "reruns.csv");
    writeFileSync(reruns, "doc_id,query_id,judge,score\nd1,q1,A,1\nd1,q1,A,0\nd2,q2,A,1\n");
    const error = await readSource(
      { files: [reruns], judge: "judge" },
      { metrics: ["score"] },
      { read: "tables" },
    ).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain("name the reruns' column with `trial`");
  });

  it("keeps the facet columns out of the default metric", async () => {
    const small = join(scratchDir(), "small.csv");
    writeFileSync(small, "doc_id,query_id,epoch,score\nd1,q1,1,1\nd1,q1,2,0\nd2,q2,1,1\n");
    const [read] = await readSource({ files: [small], trial: "epoch" }, {}, { read: "tables" });
    expect(read?.table.metrics).toEqual(["score"]);
    const cells = read?.cells?.[0]?.cells as FacetCells;
    expect([...cells.n]).toEqual([2, 1]);
    expect([...cells.sum]).toEqual([1, 1]);
    expect([...cells.withinSumOfSquares]).toEqual([0.5, 0]);
    expect(cells.judge).toBeNull();
    expect(cells.variant).toBeNull();
  });
});

describe("facet cells of a file DuckDB reads on several threads", () => {
  // 120 documents (integer ids) × 10 queries × 3 judges × 200 trials of a real-valued score:
  // 720,000 rows, in Parquet row groups of 8,192 that DuckDB spreads over its threads.
  const csv = join(scratchDir(), "many-trials.csv");
  const file = join(scratchDir(), "many-trials.parquet");
  const next = random(7);
  const lines = ["doc,query,judge,trial,score,hit"];
  for (let d = 0; d < 120; d++)
    for (let q = 0; q < 10; q++)
      for (let j = 0; j < 3; j++)
        for (let t = 0; t < 200; t++) {
          const score = next() * 3 + d / 50;
          lines.push(`${d},${d * 10 + q},${j},${t},${score.toFixed(6)},${score > 2 ? 1 : 0}`);
        }
  writeFileSync(csv, `${lines.join("\n")}\n`);
  beforeAll(async () => {
    const db = await (await DuckDBInstance.create(":memory:")).connect();
    await db.run(
      `COPY (SELECT * FROM read_csv('${csv}')) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 8192)`,
    );
    db.closeSync();
  });
  const read = async (metric = "score") => {
    const [r] = await readSource(
      { files: [file], doc: "doc", query: "query", trial: "trial", judge: "judge" },
      { metrics: [metric] },
      { read: "tables" },
    );
    return r?.cells?.[0]?.cells as FacetCells;
  };

  it.each([
    ["real values (read on one thread)", "score"],
    ["whole numbers (exact sums, on every thread)", "hit"],
  ])(
    "gives the same bits on every read of %s, the within-cell sums of squares included",
    async (_, metric) => {
      const first = await read(metric);
      for (let k = 0; k < 3; k++) {
        const again = await read(metric);
        expect(Buffer.from(again.withinSumOfSquares.buffer)).toEqual(
          Buffer.from(first.withinSumOfSquares.buffer),
        );
        expect(Buffer.from(again.sum.buffer)).toEqual(Buffer.from(first.sum.buffer));
      }
    },
  );

  it("gives whole numbers' within-cell sums of squares as (n Σx² − (Σx)²)/n, exactly", async () => {
    const cells = await read("hit");
    // 0/1 values: Σx² = Σx, so the sum of squares is (n s − s²)/n, its numerator exact.
    cells.n.forEach((n, c) => {
      const s = cells.sum[c] as number;
      expect(cells.withinSumOfSquares[c]).toBe((n * s - s * s) / n);
    });
    expect(cells.sum.some((s) => s > 0 && s < 200)).toBe(true);
  });

  it("names and orders integer ids by their text, as the per-document tables do", async () => {
    const cells = await read();
    const ids = Array.from({ length: 120 }, (_, d) => String(d));
    expect(cells.labels.documents).toEqual([...ids].sort());
    expect(cells.labels.judges).toEqual(["0", "1", "2"]);
    // Document "10" comes before "2": its cells are coded 2.
    expect(cells.document[cells.labels.documents.indexOf("10") * 30]).toBe(2);
  });
});
