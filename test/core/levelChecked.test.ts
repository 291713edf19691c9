/**
 * Every exported function that takes a confidence level refuses one outside (0, 1) with a
 * RagciError naming it, as analyze does. A percent (95) gave NaN bounds, a gate with α = −94
 * that passed a candidate 5 points worse (p = 0.007), one tie group for every system, or a
 * plain Error from the bootstrap's quantiles.
 */
import { describe, expect, it } from "vitest";
import { summarizeCensusStrata } from "../../src/core/designs/predictedStandardErrors.js";
import { sizeStrata } from "../../src/core/designs/sizeStrata.js";
import {
  adjustComparisons,
  bootstrapPercentile,
  type Comparison,
  decideGate,
  designInterval,
  documentStats,
  facetPlanHalfWidth,
  logitInterval,
  type MetricComparisons,
  RagciError,
  stratifiedEstimates,
  stratifiedHalfWidth,
  tInterval,
  twoStageEstimates,
} from "../../src/core/index.js";

const stats = documentStats({
  ids: ["a", "b", "c", "d", "e", "f"],
  n: [2, 3, 4, 2, 3, 5],
  s: [1, 2, 1, 2, 0, 4],
});
// A candidate 5 points worse than its baseline, se 0.01 on ν = 10 (p ≈ 0.0007).
const worse = {
  metric: "hit",
  comparisons: [
    {
      a: "base",
      b: "new",
      tests: { micro: { estimate: -0.05, se: 0.01, df: 10 } },
      difference: { documents: 40 },
    },
  ],
} as unknown as MetricComparisons;
const gate = {
  rule: "fail-if-worse",
  margin: 0.02,
  estimand: "micro",
  baseline: "base",
} as const;

const CALLS: [string, (level: number) => unknown][] = [
  ["tInterval", (level) => tInterval(0.5, { se: 0.1, df: 5 }, level)],
  ["logitInterval", (level) => logitInterval(0.5, { se: 0.1, df: 5 }, level, true)],
  ["designInterval", (level) => designInterval(0.5, 0.01, 5, level)],
  [
    "bootstrapPercentile",
    (level) =>
      bootstrapPercentile(Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5]), level, {
        seed: 1,
        degenerate: 0,
      }),
  ],
  ["decideGate", (level) => decideGate([worse], level, gate)],
  [
    "adjustComparisons",
    (level) => adjustComparisons([] as readonly Comparison[], "all-pairs", level),
  ],
  [
    "stratifiedEstimates",
    (level) =>
      stratifiedEstimates(
        stats,
        { strata: ["x", "x", "x", "y", "y", "y"], populationSizes: { x: 10, y: 10 } },
        level,
      ),
  ],
  [
    "twoStageEstimates",
    (level) =>
      twoStageEstimates(
        stats,
        {
          units: ["u", "u", "v", "v", "w", "w"],
          firstStagePopulation: 10,
          secondStagePopulation: { u: 4, v: 4, w: 4 },
        },
        level,
      ),
  ],
  [
    "facetPlanHalfWidth",
    (level) =>
      facetPlanHalfWidth(
        {
          components: { document: 0.02, residual: 0.2 },
          costs: { document: 1, query: 0.1, trial: 0, judge: 0 },
          level,
        },
        { documents: 20, queries: 2, trials: 1, judges: 1 },
      ),
  ],
  [
    "stratifiedHalfWidth",
    (level) =>
      stratifiedHalfWidth({
        summary: summarizeCensusStrata(stats, sizeStrata(stats.n, 3)),
        rule: "proportional",
        estimand: "micro",
        documents: 4,
        level,
      }),
  ],
];

describe("a level outside (0, 1) is refused by every function that takes one", () => {
  it.each(CALLS)("%s: 95, 0, 1 and NaN refused; 0.95 accepted", (_, call) => {
    expect(() => call(0.95)).not.toThrow();
    for (const level of [95, 0, 1, Number.NaN]) {
      expect(() => call(level)).toThrow(RagciError);
      expect(() => call(level)).toThrow(
        new RegExp(`^level ${level} must be strictly between 0 and 1`),
      );
    }
  });

  it("a gate at 95 no longer passes a candidate shown worse", () => {
    expect(decideGate([worse], 0.95, gate).failed).toBe(true);
    expect(() => decideGate([worse], 95, gate)).toThrow(/level 95 must be .*not 95\)/);
  });
});
