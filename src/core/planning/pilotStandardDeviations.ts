import { sampleStandardDeviation } from "../numeric/sampleStandardDeviation.js";
import type { DocumentStats } from "../types.js";
import { microResiduals } from "../variance/microResiduals.js";
import { requireTwoDocuments } from "../variance/requireTwoDocuments.js";

export interface PlanningStandardDeviations {
  /** sd(r_d), ddof 1. */
  readonly macro: number;
  /** sd(u_d)/n̄ with u_d = s_d − R·n_d and n̄ = N/K, ddof 1. */
  readonly micro: number;
  readonly documents: number;
}

/**
 * The S of SPEC §7 from per-document sums (a pilot sample or a census).
 *
 * @example pilotStandardDeviations(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { micro: 0.30861, macro: 0.325, documents: 4 }
 */
export function pilotStandardDeviations(stats: DocumentStats): PlanningStandardDeviations {
  const k = requireTwoDocuments(stats);
  const rates = Float64Array.from(
    { length: k },
    (_, d) => (stats.s[d] as number) / (stats.n[d] as number),
  );
  const { u, total } = microResiduals(stats);
  return {
    macro: sampleStandardDeviation(rates),
    micro: sampleStandardDeviation(u) / (total / k),
    documents: k,
  };
}
