import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAggregates, readResults } from "../../src/ingest/index.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();

/** 400,000 real-valued results in 3,000 documents: enough rows for DuckDB to use every thread. */
function bigCsv(): string {
  const path = join(dir, "scores.csv");
  const lines = ["doc_id,score"];
  let x = 12345;
  for (let i = 0; i < 400_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const doc = (x >>> 12) % 3000;
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    lines.push(`d${doc},${(x / 4294967296) ** 3 / 7}`);
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("readResults", () => {
  const file = bigCsv();

  // With plain `sum(score)` (DOUBLE) the same file gives different last bits for about 2,200 of
  // the 3,000 documents between runs on 1, 2 and 4 threads (checked with DuckDB 1.5).
  it("gives bit-identical sums on 1, 2 and 4 DuckDB threads (exact DECIMAL sums)", async () => {
    const runs = await Promise.all(
      [1, 2, 4, 4].map((threads) => readResults({ file, metrics: ["score"], threads })),
    );
    const [first, ...others] = runs.map((r) => r.groups[0]?.stats);
    expect(first?.ids.length).toBe(3000);
    expect(first?.binary).toBe(false);
    for (const other of others) {
      expect(Array.from(other?.s ?? [])).toEqual(Array.from(first?.s ?? []));
      expect(Array.from(other?.ss ?? [])).toEqual(Array.from(first?.ss ?? []));
      expect(Array.from(other?.n ?? [])).toEqual(Array.from(first?.n ?? []));
    }
    expect(runs.every((r) => r.summation === "exact")).toBe(true);
  });

  it("keeps the per-query values of a real-valued metric, sorted within each document", async () => {
    const table = await readResults({ file, metrics: ["score"], valuesUpTo: 1_000_000 });
    const group = table.groups[0];
    const values = group?.values;
    if (!group || !values) throw new Error("values expected");
    expect(values.values.length).toBe(400_000);
    for (let d = 0; d < 5; d++) {
      const slice = Array.from(values.values.subarray(values.offsets[d], values.offsets[d + 1]));
      expect(slice.length).toBe(group.stats.n[d]);
      expect(slice).toEqual([...slice].sort((a, b) => a - b));
      const sum = slice.reduce((a, b) => a + b, 0);
      expect(Math.abs(sum - (group.stats.s[d] as number))).toBeLessThan(1e-12 * Math.max(1, sum));
    }
  });

  it("detects a 0/1 metric and keeps its sums as integers", async () => {
    const path = join(dir, "hits.csv");
    writeFileSync(path, "doc,hit\na,1\na,0\nb,1\nb,1\nc,0\n");
    const table = await readResults({ file: path, metrics: ["hit"] });
    const stats = table.groups[0]?.stats;
    expect(stats?.binary).toBe(true);
    expect(Array.from(stats?.s ?? [])).toEqual([1, 2, 0]);
    expect(table.documentColumn).toBe("doc");
  });

  it("reads booleans and integer-typed metrics in JSONL", async () => {
    const path = join(dir, "rows.jsonl");
    writeFileSync(
      path,
      '{"doc":"a","hit":true}\n{"doc":"a","hit":false}\n{"doc":"b","hit":true}\n',
    );
    const table = await readResults({ file: path, metrics: ["hit"] });
    expect(Array.from(table.groups[0]?.stats.s ?? [])).toEqual([1, 1]);
  });
});

describe("readAggregates", () => {
  it("adds repeated documents when asked (merge: concatenated shards) and treats a table without ss as 0/1", async () => {
    const path = join(dir, "agg.csv");
    writeFileSync(path, "doc,n,s\na,3,1\nb,2,2\na,4,2\n");
    const table = await readAggregates({ file: path, addRepeatedDocuments: true });
    const stats = table.groups[0]?.stats;
    expect(stats?.ids).toEqual(["a", "b"]);
    expect(Array.from(stats?.n ?? [])).toEqual([7, 2]);
    expect(Array.from(stats?.s ?? [])).toEqual([3, 2]);
    expect(stats?.binary).toBe(true);
  });

  it("refuses a document on several rows of one system × metric, naming them and merge", async () => {
    const path = join(dir, "agg-long.csv");
    writeFileSync(
      path,
      "system,metric,doc,n,s\nbm25,hit5,a,3,1\nbm25,hit5,b,2,2\ntfidf,hit5,a,3,2\nbm25,hit5,a,3,1\nbm25,hit5,a,1,0\n",
    );
    await expect(readAggregates({ file: path, displayName: "agg-long.csv" })).rejects.toThrow(
      'agg-long.csv: document "a" (system bm25, metric hit5) is on 3 rows; a per-document table has one row per document: to add shards\' tables, use ragci merge',
    );
    // One row per system × metric × document: a document under two systems is not repeated.
    writeFileSync(
      path,
      "system,metric,doc,n,s\nbm25,hit5,a,3,1\nbm25,hit5,b,2,2\ntfidf,hit5,a,3,2\n",
    );
    const table = await readAggregates({ file: path });
    expect(table.groups.map((g) => [g.system, g.stats.ids])).toEqual([
      ["bm25", ["a", "b"]],
      ["tfidf", ["a"]],
    ]);
  });
});
