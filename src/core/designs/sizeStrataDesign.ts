import type { DocumentStats } from "../types.js";
import { ALLOCATION_RULES, type AllocationRule, allocate, fewestAllocated } from "./allocation.js";
import {
  type PredictedStandardErrors,
  predictedStandardErrors,
  stratumStandardDeviations,
} from "./predictedStandardErrors.js";
import { type SizeStratum, sizeStrata } from "./sizeStrata.js";

/** One allocation of K to the size strata, with its predicted se for both estimands. */
export interface SizeStrataAllocation {
  readonly rule: AllocationRule;
  /** Neyman allocates on one estimand's own S_h; null for equal and proportional. */
  readonly estimand: "micro" | "macro" | null;
  /** K_h per stratum (large, small). */
  readonly sampled: readonly number[];
  readonly predicted: PredictedStandardErrors;
}

/** A size-stratified design for K documents of a census (what `ragci strata` reports). */
export interface SizeStrataDesign {
  readonly documents: number;
  readonly population: number;
  readonly results: number;
  readonly cutoff: number;
  /** Whether the cutoff was proposed (smallest predicted micro se under Neyman). */
  readonly cutoffProposed: boolean;
  readonly strata: readonly [SizeStratum, SizeStratum];
  /** SRS of K documents from the same census, for comparison. */
  readonly srs: PredictedStandardErrors;
  /** equal, proportional, Neyman on micro's S_h, Neyman on macro's S_h. */
  readonly allocations: readonly SizeStrataAllocation[];
}

/**
 * The allocations at one cutoff, or null when a stratum would be empty or K too few for the
 * strata. A stratum of one document is taken whole (allocate gives it its one).
 */
function atCutoff(census: DocumentStats, documents: number, cutoff: number) {
  const strata = sizeStrata(census.n, cutoff);
  if (strata.some((h) => h.documents.length === 0)) return null;
  if (documents < fewestAllocated(strata.map((h) => ({ population: h.documents.length }))))
    return null;
  // Neyman allocates on an estimand's own S_h, so it differs between micro and macro (as in
  // plan --cutoff): one row per estimand; equal and proportional do not depend on S_h.
  const allocation = (rule: AllocationRule, estimand: "micro" | "macro"): SizeStrataAllocation => {
    const sampled = allocate(
      documents,
      strata.map((h) => ({
        population: h.documents.length,
        sd: stratumStandardDeviations(census, h)[estimand],
      })),
      rule,
    );
    return {
      rule,
      estimand: rule === "neyman" ? estimand : null,
      sampled,
      predicted: predictedStandardErrors(census, strata, sampled),
    };
  };
  const allocations = [
    ...ALLOCATION_RULES.map((rule) => allocation(rule, "micro")),
    allocation("neyman", "macro"),
  ];
  return { cutoff, strata, allocations };
}

/**
 * The size-stratified design for K documents: at the given cutoff, or at the one (among the
 * distinct sizes, at most 200 of them by quantile) with the smallest predicted micro se under
 * Neyman. Null when every cutoff (or the given one) leaves a stratum empty.
 *
 * @example // K = 5 of 6 documents, large = more than 3 results; Neyman on macro's S_h (0.126
 *   // large, 0.289 small) would give the large stratum 1.5, so it gets its minimum, 2
 *   sizeStrataDesign(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [2, 2, 3, 10, 12, 20], s: [1, 1, 3, 3, 4, 2] }), 5, 3).allocations.map((a) => [a.rule, a.estimand, a.sampled])
 *   // => [["equal", null, [3, 2]], ["proportional", null, [3, 2]], ["neyman", "micro", [3, 2]], ["neyman", "macro", [2, 3]]]
 */
export function sizeStrataDesign(
  census: DocumentStats,
  documents: number,
  cutoff?: number,
): SizeStrataDesign | null {
  let chosen: ReturnType<typeof atCutoff> = null;
  if (cutoff !== undefined) chosen = atCutoff(census, documents, cutoff);
  else {
    const sizes = [...new Set(Array.from(census.n))].sort((a, b) => a - b);
    const step = Math.max(1, Math.floor(sizes.length / 200));
    const neymanMicro = (c: NonNullable<typeof chosen>) =>
      c.allocations[2]?.predicted.micro ?? Number.POSITIVE_INFINITY;
    for (let i = 0; i < sizes.length; i += step) {
      const candidate = atCutoff(census, documents, sizes[i] as number);
      if (candidate && (!chosen || neymanMicro(candidate) < neymanMicro(chosen)))
        chosen = candidate;
    }
  }
  if (!chosen) return null;
  const M = census.n.length;
  return {
    documents,
    population: M,
    results: census.n.reduce((a, b) => a + b, 0),
    cutoff: chosen.cutoff,
    cutoffProposed: cutoff === undefined,
    strata: chosen.strata,
    srs: predictedStandardErrors(
      census,
      [{ documents: Array.from({ length: M }, (_, d) => d) }],
      [documents],
    ),
    allocations: chosen.allocations,
  };
}
