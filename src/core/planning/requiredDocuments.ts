import { RagciError } from "../errors.js";
import {
  type PlanningInput,
  planningHalfWidth,
  validatePlanningInput,
} from "./planningHalfWidth.js";
import { smallestDocuments, smallestDocumentsWithinLimit } from "./smallestDocuments.js";

/**
 * Smallest K ≥ 2 with t(1 − α/2; K − 1)·S/√K·√(1 − K/M) ≤ w (SPEC §7). The half-width falls
 * as K grows, so the answer is found by doubling and bisection: O(log K) quantiles.
 * With M, K never exceeds M (a census has half-width 0).
 *
 * @example requiredDocuments({ sd: 0.224, halfWidth: 0.05, population: 1300 }) // => 76
 * @example requiredDocuments({ sd: 0.224, halfWidth: 0.05 }) // => 80
 */
export function requiredDocuments(input: PlanningInput & { readonly halfWidth: number }): number {
  validatePlanningInput(input);
  if (!(input.halfWidth > 0 && Number.isFinite(input.halfWidth))) {
    throw new RagciError(
      "invalid-option",
      `half-width ${input.halfWidth} must be a positive number`,
    );
  }
  const fits = (k: number) => planningHalfWidth({ ...input, documents: k }) <= input.halfWidth;
  return smallestDocuments(fits, input.population ?? null);
}

/**
 * `requiredDocuments`, with null when no K up to 10¹² fits: how "without fpc" is reported
 * next to a finite population's answer, which never exceeds M.
 */
export function requiredDocumentsWithinLimit(
  input: PlanningInput & { readonly halfWidth: number },
): number | null {
  validatePlanningInput(input);
  const fits = (k: number) => planningHalfWidth({ ...input, documents: k }) <= input.halfWidth;
  return smallestDocumentsWithinLimit(fits, input.population ?? null);
}

/**
 * The planned half-width at each K (for a table or a plot).
 *
 * @example halfWidthCurve({ sd: 0.224, level: 0.95, population: null, documents: [20, 80] })
 *   // => [{ documents: 20, halfWidth: 0.10484 }, { documents: 80, halfWidth: 0.04985 }]
 */
export function halfWidthCurve(input: PlanningInput & { readonly documents: readonly number[] }): {
  readonly documents: number;
  readonly halfWidth: number;
  readonly halfWidthWithoutFpc: number;
}[] {
  validatePlanningInput(input);
  return input.documents.map((k) => ({
    documents: k,
    halfWidth: planningHalfWidth({ ...input, documents: k }),
    halfWidthWithoutFpc: planningHalfWidth({ ...input, population: null, documents: k }),
  }));
}
