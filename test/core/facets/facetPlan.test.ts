/**
 * Planning across facets: the cheapest design for a target half-width and the narrowest for a
 * budget equal an exhaustive enumeration of every design within the limits; the planned
 * variance is the component-sum form σ²_D/D + σ²_Q/(DQ) + σ²_J/J + σ²_DJ/(DJ) + σ²_e/(DQJT);
 * and the planned ν at the pilot's own balanced design is the intercept's Satterthwaite ν
 * (which equals lmerTest's: varianceComponents.lme4.test.ts).
 */
import { describe, expect, it } from "vitest";
import { interceptSatterthwaite } from "../../../src/core/facets/interceptSatterthwaite.js";
import { remlFit } from "../../../src/core/facets/remlFit.js";
import {
  cheapestFacetPlan,
  type FacetPlanInput,
  facetPlanHalfWidth,
  narrowestFacetPlan,
  varianceComponents,
} from "../../../src/core/index.js";
import { tQuantile } from "../../../src/core/numeric/distributions.js";
import { cellsFromRows, trialRows } from "./facetData.js";

const LIMITS = { documents: 120, queries: 5, trials: 4, judges: 6 };

const CASES: readonly FacetPlanInput[] = [
  {
    components: { document: 0.04, query: 0.02, judge: 0.01, documentJudge: 0.005, residual: 0.2 },
    costs: { document: 5, query: 1, trial: 0.2, judge: 0.05 },
    limits: LIMITS,
  },
  {
    components: { document: 0.01, query: 0.05, judge: 0.002, documentJudge: 0.02, residual: 0.1 },
    costs: { document: 1, query: 2, trial: 0.5, judge: 0.5 },
    limits: LIMITS,
  },
  {
    components: { document: 0.05, query: 0.01, residual: 0.25 },
    costs: { document: 3, query: 0.5, trial: 0.1, judge: 0 },
    limits: LIMITS,
  },
];

/** Every design within the limits, its half-width recomputed from the component-sum form. */
function enumerate(input: FacetPlanInput) {
  const c = input.components;
  const judgesRandom = c.judge !== undefined;
  const designs = [];
  for (let j = judgesRandom ? 2 : 1; j <= (judgesRandom ? LIMITS.judges : 1); j++)
    for (let q = 1; q <= LIMITS.queries; q++)
      for (let t = 1; t <= LIMITS.trials; t++)
        for (let d = 2; d <= LIMITS.documents; d++) {
          const variance =
            (c.document ?? 0) / d +
            (c.query ?? 0) / (d * q) +
            (judgesRandom ? (c.judge ?? 0) / j + (c.documentJudge ?? 0) / (d * j) : 0) +
            (c.residual ?? 0) / (d * q * j * t);
          const plan = facetPlanHalfWidth(input, {
            documents: d,
            queries: q,
            trials: t,
            judges: j,
          });
          expect(plan.variance).toBeCloseTo(variance, 14);
          const cost =
            d * input.costs.document +
            d * q * input.costs.query +
            d * q * t * input.costs.trial +
            d * q * t * j * input.costs.judge;
          const halfWidth = tQuantile(0.975, plan.df) * Math.sqrt(variance);
          designs.push({ d, q, t, j, cost, halfWidth });
        }
  return designs;
}

describe.each(CASES.map((input, index) => ({ index, input })))(
  "planning case $index",
  ({ input }) => {
    const designs = enumerate(input);
    const widths = designs.map((x) => x.halfWidth).sort((a, b) => a - b);
    const targets = [0.8, 0.5, 0.3, 0.1].map(
      (f) => widths[Math.floor(f * (widths.length - 1))] as number,
    );

    it.each(targets.map((target) => ({ target })))(
      "finds the cheapest design for half-width $target",
      ({ target }) => {
        const feasible = designs.filter((x) => x.halfWidth <= target * (1 + 1e-12));
        const cheapest = Math.min(...feasible.map((x) => x.cost));
        const plan = cheapestFacetPlan(input, target);
        expect(plan).not.toBeNull();
        expect(plan?.halfWidth).toBeLessThanOrEqual(target * (1 + 1e-12));
        expect(plan?.cost).toBeCloseTo(cheapest, 9);
      },
    );

    it.each(
      [0.3, 0.6].map((f) => ({
        budget: designs.map((x) => x.cost).sort((a, b) => a - b)[
          Math.floor(f * (designs.length - 1))
        ] as number,
      })),
    )("finds the narrowest design for budget $budget", ({ budget }) => {
      const affordable = designs.filter((x) => x.cost <= budget);
      const narrowest = Math.min(...affordable.map((x) => x.halfWidth));
      const plan = narrowestFacetPlan(input, budget);
      expect(plan?.cost).toBeLessThanOrEqual(budget);
      expect(plan?.halfWidth).toBeCloseTo(narrowest, 12);
    });
  },
);

describe("the planned ν", () => {
  it("is the intercept's Satterthwaite ν at the pilot's own balanced design", () => {
    const spec = {
      seed: 11,
      documents: 12,
      queries: 3,
      judges: 3,
      variants: 0,
      trials: 2,
      sd: { document: 0.6, query: 0.4, judge: 0.5, documentJudge: 0.3, variant: 0, residual: 0.5 },
    };
    const cells = cellsFromRows(trialRows(spec));
    const fit = varianceComponents(cells);
    expect(fit.boundary).toEqual([]);
    const plan = facetPlanHalfWidth(
      { components: fit.components, costs: { document: 0, query: 0, trial: 0, judge: 0 } },
      { documents: 12, queries: 3, trials: 2, judges: 3 },
    );
    expect(plan.variance).toBeCloseTo(fit.meanSe ** 2, 12);
    expect(plan.df).toBeCloseTo(interceptSatterthwaite(remlFit(cells)) as number, 3);
  });
});
