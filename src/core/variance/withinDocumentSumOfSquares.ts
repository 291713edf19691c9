import type { DocumentStats } from "../types.js";

/**
 * Σ_d Σ_q (x_dq − r_d)² = Σ_d (ss_d − s_d²/n_d): the pooled within-document sum of squares.
 * Each document's term is non-negative in exact arithmetic; rounding below 0 is clamped.
 */
export function withinDocumentSumOfSquares(stats: DocumentStats, d: number): number {
  const s = stats.s[d] as number;
  const within = (stats.ss[d] as number) - (s * s) / (stats.n[d] as number);
  return Math.max(within, 0);
}
