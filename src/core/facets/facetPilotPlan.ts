import type { FacetCells, FacetComponent } from "./facetCells.js";
import {
  cheapestFacetPlan,
  type FacetCosts,
  type FacetDesign,
  type FacetPlan,
  facetPlanHalfWidth,
  facetSearchLimits,
  narrowestFacetPlan,
} from "./facetPlan.js";
import { varianceComponents } from "./varianceComponents.js";

/** What a faceted pilot says about the next design (`ragci plan --cost`). */
export interface FacetPilotPlan {
  /** The pilot's variance components (REML, varianceComponents). */
  readonly components: Partial<Record<FacetComponent, number>>;
  readonly costs: FacetCosts;
  /** The pilot's own design, averaged (queries per document, reruns per cell), and its plan. */
  readonly current: FacetPlan;
  /** The cheapest design for the half-width; its plan null when none within the limits reaches it. */
  readonly cheapest: { readonly halfWidth: number; readonly plan: FacetPlan | null };
  /** With a budget: the narrowest design it buys (plan null when it buys none). */
  readonly narrowest: { readonly budget: number; readonly plan: FacetPlan | null } | null;
  /** The search's bounds: a plan at one is the cheapest (narrowest) within them only. */
  readonly limits: FacetDesign;
}

/**
 * From a faceted pilot's cells: its variance components, the half-width of its own design (D
 * documents, Q = queries / D, T = observations / cells, J judges), the cheapest design for a
 * half-width and, given a budget, the narrowest it buys (facetPlan.ts; judges drawn from a
 * population).
 *
 * @example
 *   // three documents (one query each) graded by two judges, twice: a 0.6 0.8 | 0.4 0.4, b 0.7 0.9 |
 *   // 0.8 0.8, c 0.5 0.3 | 0.1 0.3 (judge j1 | j2)
 *   // current: the pilot's own design, whose half-width is its REML interval's (facetInterval)
 *   facetPilotPlan({ document: Int32Array.of(0, 0, 1, 1, 2, 2), query: Int32Array.of(0, 0, 1, 1, 2, 2), judge: Int32Array.of(0, 1, 0, 1, 0, 1), variant: null, n: Float64Array.of(2, 2, 2, 2, 2, 2), sum: Float64Array.of(1.4, 0.8, 1.6, 1.6, 0.8, 0.4), withinSumOfSquares: Float64Array.of(0.02, 0, 0.02, 0, 0.02, 0.02), labels: { documents: ["a", "b", "c"], judges: ["j1", "j2"], variants: null } }, { costs: { document: 1, query: 1, trial: 1, judge: 1 }, level: 0.95, halfWidth: 0.1 })
 *   // => { current: { documents: 3, queries: 1, trials: 2, judges: 2, cost: 24, df: 2.4983, halfWidth: 0.57483 }, cheapest: { plan: { documents: 36, queries: 1, trials: 1, judges: 12, cost: 540, halfWidth: 0.09992 } }, narrowest: null }
 */
export function facetPilotPlan(
  cells: FacetCells,
  options: {
    readonly costs: FacetCosts;
    readonly level: number;
    readonly halfWidth: number;
    readonly budget?: number | undefined;
  },
): FacetPilotPlan {
  const fit = varianceComponents(cells);
  const { levels } = fit;
  const input = { components: fit.components, costs: options.costs, level: options.level };
  const design: FacetDesign = {
    documents: levels.documents,
    queries: levels.queries / levels.documents,
    trials: levels.observations / levels.cells,
    judges: Math.max(1, levels.judges),
  };
  const { halfWidth, budget } = options;
  return {
    components: fit.components,
    costs: options.costs,
    current: facetPlanHalfWidth(input, design),
    cheapest: { halfWidth, plan: cheapestFacetPlan(input, halfWidth) },
    narrowest: budget === undefined ? null : { budget, plan: narrowestFacetPlan(input, budget) },
    limits: facetSearchLimits(input),
  };
}
