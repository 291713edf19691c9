import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";

/** Micro average R = Σ s_d / Σ n_d: the rate of a randomly drawn result. */
export function microEstimate(stats: DocumentStats): number {
  return compensatedSum(stats.s) / compensatedSum(stats.n);
}
