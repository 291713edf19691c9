import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";

/**
 * Micro average R = Σ s_d / Σ n_d: the rate of a randomly drawn result.
 *
 * @example microEstimate(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => 0.5
 */
export function microEstimate(stats: DocumentStats): number {
  return compensatedSum(stats.s) / compensatedSum(stats.n);
}
