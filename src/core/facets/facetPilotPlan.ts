import type { FacetCells, FacetComponent } from "./facetCells.js";
import {
  cheapestFacetPlan,
  type FacetCosts,
  type FacetDesign,
  type FacetPlan,
  facetPlanHalfWidth,
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
}

/**
 * From a faceted pilot's cells: its variance components, the half-width of its own design (D
 * documents, Q = queries / D, T = observations / cells, J judges), the cheapest design for a
 * half-width and, given a budget, the narrowest it buys (facetPlan.ts; judges drawn from a
 * population).
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
  };
}
