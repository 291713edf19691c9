/**
 * differingDocuments counts the documents whose summed difference b − a is not 0; checked on
 * COVID-QA (examples/covidqa-retrieval.csv, BM25 vs TF-IDF) against a count made here from the
 * raw per-query rows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { differingDocuments } from "../../../src/core/diagnostics/differingDocuments.js";

const [head, ...rows] = readFileSync(
  join(import.meta.dirname, "../../../examples/covidqa-retrieval.csv"),
  "utf8",
)
  .trim()
  .split(/\r?\n/)
  .map((line) => line.split(","));
const col = (name: string) => (head as string[]).indexOf(name);

/** Per document: sum over its queries of (tfidf − bm25), and its query count. */
function differencesOf(metric: string) {
  const byDoc = new Map<string, { n: number; s: number; ss: number }>();
  const value = new Map<string, number>();
  for (const r of rows) {
    const key = `${r[col("doc_id")]}|${r[col("query_id")]}`;
    const v = Number(r[col(metric)]);
    const other = value.get(key);
    if (other === undefined) {
      value.set(key, r[col("system")] === "tfidf" ? v : -v);
      continue;
    }
    const d = other + (r[col("system")] === "tfidf" ? v : -v);
    const doc = r[col("doc_id")] as string;
    const acc = byDoc.get(doc) ?? { n: 0, s: 0, ss: 0 };
    byDoc.set(doc, { n: acc.n + 1, s: acc.s + d, ss: acc.ss + d * d });
  }
  const docs = [...byDoc.entries()];
  return documentStats({
    ids: docs.map(([id]) => id),
    n: docs.map(([, x]) => x.n),
    s: docs.map(([, x]) => x.s),
    ss: docs.map(([, x]) => x.ss),
    binary: false,
  });
}

describe("differingDocuments", () => {
  it.each(["hit5", "hit1", "rr"])(
    "COVID-QA %s: the documents whose summed difference is not 0",
    (metric) => {
      const stats = differencesOf(metric);
      expect(stats.ids).toHaveLength(98);
      const tied = Array.from(stats.s).filter((s) => Math.abs(s) < 1e-12).length;
      expect(differingDocuments(stats)).toBe(98 - tied);
      expect(differingDocuments(stats)).toBeGreaterThan(0);
      expect(differingDocuments(stats)).toBeLessThan(98);
    },
  );

  it("is 0 when every document is tied", () => {
    const stats = documentStats({
      ids: ["a", "b"],
      n: [2, 3],
      s: [0, 0],
      ss: [2, 0],
      binary: false,
    });
    expect(differingDocuments(stats)).toBe(0);
  });

  it("a tie whose sum of score differences rounds off 0 is still a tie; a small real one is not", () => {
    // 0.1 + 0.2 − 0.3 is 5.6e-17 in doubles: three queries whose differences cancel.
    const x = [0.1, 0.2, -0.3];
    const s = x.reduce((a, v) => a + v, 0);
    expect(s).not.toBe(0);
    const ss = x.reduce((a, v) => a + v * v, 0);
    const stats = documentStats({
      ids: ["tied", "differs"],
      n: [3, 3],
      s: [s, 0.001],
      ss: [ss, 0.001 ** 2 + 2 * 0.3 ** 2],
      binary: false,
    });
    expect(differingDocuments(stats)).toBe(1);
  });
});
