import { RagciError } from "../errors.js";
import { tQuantile } from "../numeric/distributions.js";
import { differenceCells } from "./differenceCells.js";
import type { FacetCells, FacetComponent } from "./facetCells.js";
import {
  cheapestFacetPlan,
  cheapestShape,
  type FacetCosts,
  type FacetDesign,
  type FacetPlan,
  type FacetPlanInput,
  facetPlanHalfWidth,
  facetSearchLimits,
  narrowestFacetPlan,
} from "./facetPlan.js";
import { varianceComponents } from "./varianceComponents.js";

/** A design with the smallest difference it detects (two-sided test at the level, with power). */
export interface FacetDetectionPlan extends FacetPlan {
  /** (t(1 − α/2; ν) + t(power; ν)) · √var: the difference detected with the power asked. */
  readonly detectable: number;
}

/** What a faceted pilot of two systems says about the next comparison (`ragci plan --cost`). */
export interface FacetPairPlan {
  /** The paired difference's variance components (REML on differenceCells(b, a)). */
  readonly components: Partial<Record<FacetComponent, number>>;
  /** The prices as given (per system: a rerun is one generation, a grade one answer graded). */
  readonly costs: FacetCosts;
  /** The pilot's own design, averaged, and its planned half-width of the difference. */
  readonly current: FacetPlan;
  /** With a half-width: the cheapest design for it (plan null when none within the limits). */
  readonly cheapest: { readonly halfWidth: number; readonly plan: FacetPlan | null } | null;
  /** With a budget: the narrowest design it buys. */
  readonly narrowest: { readonly budget: number; readonly plan: FacetPlan | null } | null;
  /** The search's bounds: a plan at one is the cheapest (narrowest) within them only. */
  readonly limits: FacetDesign;
  readonly pair: {
    readonly a: string;
    readonly b: string;
    /** Cells of b and of a without a partner, left out of the difference's components. */
    readonly unmatched: { readonly a: number; readonly b: number };
    /**
     * What one unit costs for the pair: a document and a query are shared, while each rerun
     * and each grade is bought for both systems (trial and judge at twice the price).
     */
    readonly pairCosts: FacetCosts;
  };
  /** With a difference: what the pilot's design detects, and the cheapest design that detects it. */
  readonly detect: {
    readonly difference: number;
    readonly power: number;
    readonly current: FacetDetectionPlan;
    readonly plan: FacetDetectionPlan | null;
  } | null;
}

/** The smallest difference a design detects with `power` (two-sided, at the input's level). */
export function facetDetectionPlan(
  input: FacetPlanInput,
  design: FacetDesign,
  power: number,
): FacetDetectionPlan {
  const plan = facetPlanHalfWidth(input, design);
  const level = input.level ?? 0.95;
  const detectable =
    (tQuantile(1 - (1 - level) / 2, plan.df) + tQuantile(power, plan.df)) *
    Math.sqrt(plan.variance);
  return { ...plan, detectable };
}

/**
 * The cheapest balanced design that detects `difference` with `power`, or null when none within
 * the limits does. As in cheapestFacetPlan, for each (queries, reruns, judges) the detectable
 * difference falls as documents grow, so the fewest documents is found by bisection.
 */
export function cheapestFacetDetection(
  input: FacetPlanInput,
  difference: number,
  power: number,
): FacetDetectionPlan | null {
  return cheapestShape(
    input,
    (design) => facetDetectionPlan(input, design, power),
    (plan) => plan.detectable <= difference,
    (plan) => plan.detectable,
  );
}

/**
 * From a faceted pilot of two systems: the components of their paired difference b − a
 * (differenceCells: matched on document, query, judge, variant; the residual is the noise of
 * one rerun of b minus one of a — prediction noise — beside the documents' and queries' — data
 * noise), the pilot's own design's half-width, and the cheapest design for a half-width, for a
 * difference to detect with power, or the narrowest a budget buys. A pair buys each rerun and
 * each grade twice (pairCosts).
 *
 * @throws RagciError without a target, or as differenceCells and varianceComponents
 */
export function facetPairPlan(
  a: { readonly system: string; readonly cells: FacetCells },
  b: { readonly system: string; readonly cells: FacetCells },
  options: {
    readonly costs: FacetCosts;
    readonly level: number;
    readonly halfWidth?: number | undefined;
    readonly difference?: number | undefined;
    readonly power?: number | undefined;
    readonly budget?: number | undefined;
    readonly limits?: Partial<FacetDesign>;
  },
): FacetPairPlan {
  const { halfWidth, difference, budget } = options;
  if (halfWidth === undefined && difference === undefined)
    throw new RagciError(
      "invalid-option",
      "a pair's plan across facets needs a target: a half-width or a difference to detect",
    );
  const paired = differenceCells(b.cells, a.cells);
  const fit = varianceComponents(paired.cells);
  const { levels } = fit;
  const pairCosts = {
    ...options.costs,
    trial: 2 * options.costs.trial,
    judge: 2 * options.costs.judge,
  };
  const input: FacetPlanInput = {
    components: fit.components,
    costs: pairCosts,
    level: options.level,
    ...(options.limits ? { limits: options.limits } : {}),
  };
  // A difference cell's n is the harmonic mean of the two systems' reruns (differenceCells).
  let trials = 0;
  for (const n of paired.cells.n) trials += n;
  const design: FacetDesign = {
    documents: levels.documents,
    queries: levels.queries / levels.documents,
    trials: trials / paired.cells.n.length,
    judges: Math.max(1, levels.judges),
  };
  const power = options.power ?? 0.8;
  return {
    components: fit.components,
    costs: options.costs,
    current: facetPlanHalfWidth(input, design),
    cheapest:
      halfWidth === undefined ? null : { halfWidth, plan: cheapestFacetPlan(input, halfWidth) },
    narrowest: budget === undefined ? null : { budget, plan: narrowestFacetPlan(input, budget) },
    limits: facetSearchLimits(input),
    pair: { a: a.system, b: b.system, unmatched: paired.unmatched, pairCosts },
    detect:
      difference === undefined
        ? null
        : {
            difference,
            power,
            current: facetDetectionPlan(input, design, power),
            plan: cheapestFacetDetection(input, difference, power),
          },
  };
}
