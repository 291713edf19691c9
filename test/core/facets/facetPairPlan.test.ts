/**
 * A pair's plan across facets: the components of the paired difference b − a (differenceCells
 * of the pilot's two systems), and the cheapest design that detects a difference with power
 * equal to an exhaustive enumeration of every design within the limits, each rerun and grade
 * bought for both systems.
 */
import { describe, expect, it } from "vitest";
import { differenceCells } from "../../../src/core/facets/differenceCells.js";
import { facetPairPlan } from "../../../src/core/facets/facetPairPlan.js";
import { varianceComponents } from "../../../src/core/facets/varianceComponents.js";
import { tQuantile } from "../../../src/core/numeric/distributions.js";
import { cellsFromRows, type DesignSpec, trialRows } from "./facetData.js";

const LIMITS = { documents: 80, queries: 4, trials: 5, judges: 5 };

/** Two systems on one design (same documents, queries, judges, reruns), different draws. */
function pilot(sd: DesignSpec["sd"]) {
  const spec = { documents: 30, queries: 3, judges: 3, variants: 0, trials: 2, sd };
  const a = cellsFromRows(trialRows({ ...spec, seed: 11 }));
  const b = cellsFromRows(trialRows({ ...spec, seed: 12 }));
  return { a: { system: "a", cells: a }, b: { system: "b", cells: b } };
}

const CASES = [
  {
    name: "rerun noise dominates the difference (prediction noise)",
    sd: { document: 0.1, query: 0.1, judge: 0.05, documentJudge: 0.02, variant: 0, residual: 0.6 },
    costs: { document: 4, query: 1, trial: 0.05, judge: 0.02 },
  },
  {
    name: "documents and queries dominate (data noise)",
    sd: { document: 0.4, query: 0.3, judge: 0.05, documentJudge: 0.05, variant: 0, residual: 0.1 },
    costs: { document: 1, query: 0.5, trial: 0.5, judge: 0.2 },
  },
];

describe.each(CASES)("a pair's plan across facets: $name", ({ sd, costs }) => {
  const { a, b } = pilot(sd);
  const fitted = varianceComponents(differenceCells(b.cells, a.cells).cells).components;

  it("plans on the components of the paired difference b − a, at the pair's prices", () => {
    const plan = facetPairPlan(a, b, { costs, level: 0.95, halfWidth: 0.2, limits: LIMITS });
    expect(plan.components).toEqual(fitted);
    expect(plan.pair.unmatched).toEqual({ a: 0, b: 0 });
    expect(plan.pair.pairCosts).toEqual({
      ...costs,
      trial: 2 * costs.trial,
      judge: 2 * costs.judge,
    });
    // The pilot's own design: 30 documents, 3 queries each, 2 reruns, 3 judges.
    expect(plan.current).toMatchObject({ documents: 30, queries: 3, trials: 2, judges: 3 });
  });

  it("the cheapest design detecting a difference with power 0.8 is the exhaustive enumeration's", () => {
    const c = fitted;
    const power = 0.8;
    const designs: {
      d: number;
      q: number;
      t: number;
      j: number;
      cost: number;
      detectable: number;
    }[] = [];
    for (let j = 2; j <= LIMITS.judges; j++)
      for (let q = 1; q <= LIMITS.queries; q++)
        for (let t = 1; t <= LIMITS.trials; t++)
          for (let d = 2; d <= LIMITS.documents; d++) {
            const variance =
              (c.document ?? 0) / d +
              (c.query ?? 0) / (d * q) +
              (c.judge ?? 0) / j +
              (c.documentJudge ?? 0) / (d * j) +
              (c.residual ?? 0) / (d * q * j * t);
            // Balanced ANOVA mean squares and Satterthwaite's ν (facetPlan.ts's formula).
            const e = c.residual ?? 0;
            const md =
              e +
              j * t * (c.query ?? 0) +
              q * t * (c.documentJudge ?? 0) +
              q * j * t * (c.document ?? 0);
            const mj = e + q * t * (c.documentJudge ?? 0) + d * q * t * (c.judge ?? 0);
            const mdj = e + q * t * (c.documentJudge ?? 0);
            const df =
              (md + mj - mdj) ** 2 /
              (md ** 2 / (d - 1) + mj ** 2 / (j - 1) + mdj ** 2 / ((d - 1) * (j - 1)));
            const detectable = (tQuantile(0.975, df) + tQuantile(power, df)) * Math.sqrt(variance);
            const cost =
              d * costs.document +
              d * q * costs.query +
              d * q * t * 2 * costs.trial +
              d * q * t * j * 2 * costs.judge;
            designs.push({ d, q, t, j, cost, detectable });
          }
    const sorted = designs.map((x) => x.detectable).sort((x, y) => x - y);
    for (const f of [0.7, 0.4, 0.1]) {
      const difference = sorted[Math.floor(f * (sorted.length - 1))] as number;
      const plan = facetPairPlan(a, b, { costs, level: 0.95, difference, power, limits: LIMITS });
      let best: (typeof designs)[number] | null = null;
      for (const x of designs)
        if (
          x.detectable <= difference &&
          (best === null ||
            x.cost < best.cost ||
            (x.cost === best.cost && x.detectable < best.detectable))
        )
          best = x;
      const found = plan.detect?.plan;
      expect(found, `difference ${difference}`).toBeTruthy();
      expect(found?.cost).toBeCloseTo(best?.cost as number, 9);
      expect(found?.detectable).toBeCloseTo(best?.detectable as number, 12);
      expect(found?.detectable).toBeLessThanOrEqual(difference);
      expect(plan.cheapest).toBeNull();
    }
  });
});

describe("where the next rerun goes", () => {
  it("buys reruns when the difference's rerun noise dominates, documents when data noise does", () => {
    const [prediction, data] = CASES.map(({ sd, costs }) => {
      const { a, b } = pilot(sd);
      return facetPairPlan(a, b, {
        costs,
        level: 0.95,
        difference: 0.15,
        power: 0.8,
        limits: { documents: 20_000, queries: 20, trials: 20, judges: 8 },
      });
    });
    expect(prediction?.detect?.plan?.trials).toBeGreaterThan(1);
    expect(data?.detect?.plan?.trials).toBe(1);
  });

  it("refuses a pair's plan without a target", () => {
    const { a, b } = pilot(CASES[0]?.sd as DesignSpec["sd"]);
    expect(() => facetPairPlan(a, b, { costs: CASES[0]?.costs as never, level: 0.95 })).toThrow(
      "a pair's plan across facets needs a target",
    );
  });
});
