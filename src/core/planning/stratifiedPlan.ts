import { type AllocationRule, allocate, fewestAllocated } from "../designs/allocation.js";
import {
  type CensusStrataSummary,
  predictedStandardErrorsOfSummary,
} from "../designs/predictedStandardErrors.js";
import { RagciError } from "../errors.js";
import { validateLevel } from "../intervals/level.js";
import { tQuantile } from "../numeric/distributions.js";
import type { Estimand } from "../types.js";
import { smallestDocuments } from "./smallestDocuments.js";

export interface StratifiedPlanInput {
  /** The census's strata: M_h and S_h of each estimand (summarizeCensusStrata). */
  readonly summary: CensusStrataSummary;
  readonly rule: AllocationRule;
  readonly estimand: Estimand;
  /** Confidence level, default 0.95. */
  readonly level?: number;
}

export interface StratifiedHalfWidth {
  /** K_h per stratum, in the summary's order; they add up to K. */
  readonly sampled: readonly number[];
  /** Predicted se of the stratified estimator (Cochran 1977 §5.3, with each stratum's fpc). */
  readonly se: number;
  /** ν = K − H, the design's degrees of freedom. */
  readonly df: number;
  /** t(1 − α/2; K − H)·se. */
  readonly halfWidth: number;
}

/**
 * Predicted half-width of the stratified interval with K documents allocated by `rule`:
 * t(1 − α/2; K − H)·se_K. Neyman allocates ∝ M_h·S_h with the S_h of the estimand planned
 * for (S_{z,h} for micro, S_{r,h} for macro), so each estimand gets its own best allocation.
 *
 * @throws RagciError "invalid-option" when K < Σ min(2, M_h) or K > M (from allocate)
 * @example // Neyman ∝ 10 × 0.2 : 30 × 0.4 gives 1.1 : 6.9, the first raised to 2; Var = 0.25²·0.8·0.2²/2
 *   // + 0.75²·0.8·0.4²/6 = 0.013, half-width qt(0.975, 6)·√0.013
 *   stratifiedHalfWidth({ summary: { population: 40, strata: [{ population: 10, sd: { micro: 0.1, macro: 0.2 } }, { population: 30, sd: { micro: 0.3, macro: 0.4 } }] }, rule: "neyman", estimand: "macro", documents: 8 })
 *   // => { sampled: [2, 6], se: 0.11402, df: 6, halfWidth: 0.27899 }
 */
export function stratifiedHalfWidth(
  input: StratifiedPlanInput & { readonly documents: number },
): StratifiedHalfWidth {
  const { summary, estimand } = input;
  const sampled = allocate(
    input.documents,
    summary.strata.map((h) => ({ population: h.population, sd: h.sd[estimand] })),
    input.rule,
  );
  const se = predictedStandardErrorsOfSummary(summary, sampled)[estimand];
  const df = input.documents - summary.strata.length;
  const level = validateLevel(input.level ?? 0.95);
  return { sampled, se, df, halfWidth: tQuantile(1 - (1 - level) / 2, df) * se };
}

/**
 * Smallest K ≥ Σ min(2, M_h) (two per stratum, one of a stratum of one) whose stratified half-width (allocation redone at each K) is at most w, by
 * doubling and bisection over K ≤ M: the answer K meets w and K − 1 does not. Rounding the
 * allocation can make the half-width not quite monotone in K, so a smaller K meeting w by a
 * rounding accident is not searched for.
 *
 * @example // K = 23 (3 + 20) gives 0.0949, K = 22 (3 + 19) 0.1005 (R, the same allocation and Var)
 *   requiredStratifiedDocuments({ summary: { population: 40, strata: [{ population: 10, sd: { micro: 0.1, macro: 0.2 } }, { population: 30, sd: { micro: 0.3, macro: 0.4 } }] }, rule: "neyman", estimand: "macro", halfWidth: 0.1 })
 *   // => 23
 */
export function requiredStratifiedDocuments(
  input: StratifiedPlanInput & { readonly halfWidth: number },
): number {
  if (!(input.halfWidth > 0 && Number.isFinite(input.halfWidth))) {
    throw new RagciError(
      "invalid-option",
      `half-width ${input.halfWidth} must be a positive number`,
    );
  }
  const fits = (k: number) =>
    stratifiedHalfWidth({ ...input, documents: k }).halfWidth <= input.halfWidth;
  return smallestDocuments(fits, input.summary.population, fewestAllocated(input.summary.strata));
}
