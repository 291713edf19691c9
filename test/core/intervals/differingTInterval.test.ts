/**
 * differingTInterval against test/fixtures/numpy/differing_t.json (numpy/scipy, written by
 * differing_t.py from test/fixtures/reference/paired_ties_rr.csv): ν = D − 1 with D the
 * documents whose summed difference B − A is not 0, the se and bounds with and without fpc.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { differingTInterval } from "../../../src/core/intervals/differingTInterval.js";

const fixtures = new URL("../../fixtures/", import.meta.url);
const reference = JSON.parse(readFileSync(new URL("numpy/differing_t.json", fixtures), "utf8")) as {
  K: number;
  D: number;
  cases: {
    level: number;
    M: number | null;
    estimate: number;
    se: number;
    df: number;
    lower: number;
    upper: number;
  }[];
};

/** Per-document sums of B − A, paired per query here from the raw rows. */
function differences() {
  const [, ...rows] = readFileSync(new URL("reference/paired_ties_rr.csv", fixtures), "utf8")
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(","));
  const byQuery = new Map<string, { doc: string; a?: number; b?: number }>();
  for (const [doc, query, system, score] of rows as string[][]) {
    const q = byQuery.get(`${doc}|${query}`) ?? { doc: doc as string };
    if (system === "A") q.a = Number(score);
    else q.b = Number(score);
    byQuery.set(`${doc}|${query}`, q);
  }
  const docs = new Map<string, { n: number; s: number; ss: number }>();
  for (const q of byQuery.values()) {
    const d = (q.b as number) - (q.a as number);
    const acc = docs.get(q.doc) ?? { n: 0, s: 0, ss: 0 };
    docs.set(q.doc, { n: acc.n + 1, s: acc.s + d, ss: acc.ss + d * d });
  }
  const list = [...docs.entries()];
  return documentStats({
    ids: list.map(([id]) => id),
    n: list.map(([, x]) => x.n),
    s: list.map(([, x]) => x.s),
    ss: list.map(([, x]) => x.ss),
    binary: false,
  });
}

describe("differingTInterval", () => {
  const stats = differences();
  it(`counts D = ${reference.D} of K = ${reference.K} documents that differ`, () => {
    expect(stats.ids).toHaveLength(reference.K);
  });

  it.each(reference.cases.map((c) => [c.level, c.M ?? "none", c]))(
    "level %s, M %s: se, ν and bounds are numpy/scipy's",
    (_, __, c) => {
      const fpc = c.M === null ? 1 : 1 - reference.K / c.M;
      const interval = differingTInterval(stats, c.level, fpc);
      expect(interval.available).toBe(true);
      if (!interval.available) return;
      expect(interval.df).toBe(c.df);
      expect(Math.abs((interval.se as number) - c.se)).toBeLessThan(1e-14);
      expect(Math.abs(interval.lower - c.lower)).toBeLessThan(1e-12);
      expect(Math.abs(interval.upper - c.upper)).toBeLessThan(1e-12);
    },
  );
});
