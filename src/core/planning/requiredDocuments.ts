import { RagciError } from "../errors.js";
import {
  type PlanningInput,
  planningHalfWidth,
  validatePlanningInput,
} from "./planningHalfWidth.js";

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
  const m = input.population ?? null;
  if (fits(2)) return 2;
  let low = 2; // does not fit
  let high = 4;
  while (!fits(high)) {
    low = high;
    if (m !== null && high >= m) return m;
    high = m === null ? high * 2 : Math.min(high * 2, m);
    if (high > 1e12)
      throw new RagciError(
        "invalid-option",
        "the half-width asked for needs more than 10¹² documents",
      );
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** The planned half-width at each K (for a table or a plot). */
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
