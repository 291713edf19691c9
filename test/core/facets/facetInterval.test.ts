/**
 * facetInterval: the fixed-judges interval is today's document-level CR2 on the cells (checked
 * against a recomputation from the trial rows), the REML interval is the intercept
 * ± t(ν)·se, and the shares of var(mean) are the balanced closed form.
 */
import { describe, expect, it } from "vitest";
import {
  cr2,
  documentStats,
  facetInterval,
  RagciError,
  tInterval,
  varianceComponents,
} from "../../../src/core/index.js";
import { cellsFromRows, trialRows } from "./facetData.js";

const SD = { document: 0.6, query: 0.4, judge: 0.5, documentJudge: 0.3, variant: 0, residual: 0.5 };
const SPEC = { seed: 5, documents: 12, queries: 3, judges: 3, variants: 0, trials: 2, sd: SD };

describe("facetInterval", () => {
  const rows = trialRows(SPEC);
  const cells = cellsFromRows(rows);
  const result = facetInterval(cells, { level: 0.9 });

  it("gives these judges the document-level CR2 interval of the (query, judge) means", () => {
    // From the rows: average each (query, judge) over its trials, sum per document.
    const byCell = new Map<string, { doc: number; total: number; count: number }>();
    rows.y.forEach((y, i) => {
      const k = `${rows.query[i]}/${rows.judge?.[i]}`;
      const e = byCell.get(k) ?? { doc: rows.doc[i] as number, total: 0, count: 0 };
      e.total += y;
      e.count += 1;
      byCell.set(k, e);
    });
    const n = new Array(SPEC.documents).fill(0);
    const s = new Array(SPEC.documents).fill(0);
    const ss = new Array(SPEC.documents).fill(0);
    for (const e of byCell.values()) {
      n[e.doc] += 1;
      s[e.doc] += e.total / e.count;
      ss[e.doc] += (e.total / e.count) ** 2;
    }
    const stats = documentStats({ ids: n.map((_, d) => `doc${d}`), n, s, ss, binary: false });
    const estimate = s.reduce((a, b) => a + b, 0) / n.reduce((a, b) => a + b, 0);
    const expected = tInterval(estimate, cr2(stats), 0.9);
    expect(result.fixed.estimate).toBeCloseTo(estimate, 12);
    expect(result.fixed.interval.se).toBeCloseTo(expected.se as number, 12);
    expect(result.fixed.interval.df).toBeCloseTo(expected.df as number, 9);
    expect(result.fixed.interval.lower).toBeCloseTo(expected.lower, 12);
  });

  it("gives the REML intercept ± t(ν)·se, and the judge spread added to the CR2 variance", () => {
    const fit = varianceComponents(cells);
    const reml = result.reml;
    expect(reml?.estimate).toBe(fit.mean);
    expect(reml?.interval.se).toBe(fit.meanSe);
    const half = (reml?.interval.upper as number) - fit.mean;
    expect(half).toBeCloseTo((reml?.interval.q as number) * fit.meanSe, 12);
    // Spread: s² of the three per-judge means of the (query, judge) means, over J, recomputed
    // from the rows; ν by Satterthwaite over (ν_CR2, J − 1).
    const perJudge = [0, 1, 2].map((j) => {
      const byQuery = new Map<number, number[]>();
      rows.y.forEach((y, i) => {
        if (rows.judge?.[i] !== j) return;
        byQuery.set(rows.query[i] as number, [...(byQuery.get(rows.query[i] as number) ?? []), y]);
      });
      const means = [...byQuery.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
      return means.reduce((a, b) => a + b, 0) / means.length;
    });
    const m = perJudge.reduce((a, b) => a + b, 0) / 3;
    const vJ = perJudge.reduce((a, b) => a + (b - m) ** 2, 0) / 2 / 3;
    const vD = (result.fixed.interval.se as number) ** 2;
    const df = (vD + vJ) ** 2 / (vD ** 2 / (result.fixed.interval.df as number) + vJ ** 2 / 2);
    expect(result.spread?.interval.se).toBeCloseTo(Math.sqrt(vD + vJ), 12);
    expect(result.spread?.interval.df).toBeCloseTo(df, 9);
    expect(result.spread?.estimate).toBe(result.fixed.estimate);
  });

  it("recommends the union of the two for the population of judges", () => {
    const { population, reml, spread } = result;
    expect(population?.interval.lower).toBe(
      Math.min(reml?.interval.lower as number, spread?.interval.lower as number),
    );
    expect(population?.interval.upper).toBe(
      Math.max(reml?.interval.upper as number, spread?.interval.upper as number),
    );
    // Judges random: their spread widens the interval beyond the fixed-judges one.
    expect(
      (population?.interval.upper as number) - (population?.interval.lower as number),
    ).toBeGreaterThan(result.fixed.interval.upper - result.fixed.interval.lower);
    expect(result.recommended).toBe("population");
  });

  it("shares var(mean) as σ²_D/D, σ²_Q/(DQ), σ²_J/J, σ²_DJ/(DJ), σ²/(DQJT) on a balanced design", () => {
    const v = result.components.components;
    const [D, Q, J, T] = [SPEC.documents, SPEC.queries, SPEC.judges, SPEC.trials];
    const terms = {
      document: (v.document as number) / D,
      query: (v.query as number) / (D * Q),
      judge: (v.judge as number) / J,
      documentJudge: (v.documentJudge as number) / (D * J),
      residual: (v.residual as number) / (D * Q * J * T),
    };
    const total = Object.values(terms).reduce((a, b) => a + b, 0);
    for (const [k, t] of Object.entries(terms))
      expect(result.shares[k as keyof typeof terms]).toBeCloseTo(t / total, 12);
    // Balanced: the mean's variance is var(μ̂) of the REML fit.
    expect(Math.sqrt(total)).toBeCloseTo(result.components.meanSe, 9);
    const largest = Object.entries(terms).sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(result.dominant).toBe(largest);
  });

  it("recommends the fixed (document-level) interval when only reruns vary", () => {
    const reruns = cellsFromRows(trialRows({ ...SPEC, judges: 0 }));
    const only = facetInterval(reruns, { level: 0.95 });
    expect(only.population).toBeNull();
    expect(only.recommended).toBe("fixed");
    expect(Object.keys(only.components.components).sort()).toEqual([
      "document",
      "query",
      "residual",
    ]);
  });

  it("refuses a query that appears in two documents, in one line", () => {
    const broken = {
      ...cells,
      query: Int32Array.from(cells.query, (q, c) => (c === 0 ? 5 * SPEC.queries : q)),
    };
    expect(() => facetInterval(broken, { level: 0.95 })).toThrow(RagciError);
    expect(() => facetInterval(broken, { level: 0.95 })).toThrow(/belongs to one document/);
  });
});

describe("facetInterval on a fit with no residual variance", () => {
  // Two judges who always agree and one trial per cell: each cell is its query's 0/1 value, so
  // REML's residual goes to 0 and θ̂ runs off; lmerTest's ν is not defined there. Six documents of
  // two queries (one of one), values (3d + q) mod 2 — compare's --intersect case that threw
  // "choleskyInverse: pivot 2 is 0" from the Satterthwaite step.
  const document: number[] = [];
  const query: number[] = [];
  const judge: number[] = [];
  const sum: number[] = [];
  let q = 0;
  for (let d = 0; d < 6; d++)
    for (let k = 0; k < 2; k++) {
      if (d === 1 && k === 1) continue;
      for (const j of [0, 1]) {
        document.push(d);
        query.push(q);
        judge.push(j);
        sum.push((3 * d + q) % 2);
      }
      q++;
    }
  const cellsOf = (values: readonly number[]) => ({
    document: Int32Array.from(document),
    query: Int32Array.from(query),
    judge: Int32Array.from(judge),
    variant: null,
    n: new Float64Array(document.length).fill(1),
    sum: Float64Array.from(values),
    withinSumOfSquares: new Float64Array(document.length),
    labels: { documents: ["0", "1", "2", "3", "4", "5"], judges: ["j1", "j2"], variants: null },
  });

  it("gives no REML interval, and the population interval is the spread one", () => {
    const result = facetInterval(cellsOf(sum), { level: 0.95 });
    expect(result.reml).toBeNull();
    expect(result.population).toEqual(result.spread);
    // Judges agree, so the spread adds nothing to CR2: the fixed interval's se, on the mean.
    const stats = documentStats({
      ids: ["0", "1", "2", "3", "4", "5"],
      n: [4, 2, 4, 4, 4, 4],
      s: [0, 1, 2, 3, 4, 5].map((d) =>
        sum.filter((_, c) => document[c] === d).reduce((a, b) => a + b, 0),
      ),
      binary: false,
    });
    const spread = result.spread?.interval;
    expect(spread?.se).toBeCloseTo(cr2(stats).se as number, 12);
    expect(Number.isFinite(spread?.lower)).toBe(true);
    expect(result.population?.estimate).toBeCloseTo(6 / 11, 12);
  });

  it("gives finite bounds when every cell is 0 (a difference of two identical systems)", () => {
    const result = facetInterval(cellsOf(sum.map(() => 0)), { level: 0.95 });
    expect(result.reml).toBeNull();
    expect(result.population?.interval).toMatchObject({ lower: 0, upper: 0, se: 0 });
  });
});
