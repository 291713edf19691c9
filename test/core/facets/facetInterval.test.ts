/**
 * facetInterval: the fixed-judges interval is today's document-level CR2 on the cells (checked
 * against a recomputation from the trial rows), the population interval is the REML intercept
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

  it("centres the judge-population interval on the REML intercept with its se", () => {
    const fit = varianceComponents(cells);
    const population = result.population;
    expect(population).not.toBeNull();
    expect(population?.estimate).toBe(fit.mean);
    expect(population?.interval.se).toBe(fit.meanSe);
    const half = (population?.interval.upper as number) - fit.mean;
    expect(half).toBeCloseTo((population?.interval.q as number) * fit.meanSe, 12);
    // Judges random: their spread widens the interval beyond the fixed-judges one.
    expect(half).toBeGreaterThan(result.fixed.interval.upper - result.fixed.estimate);
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
