import { NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";

/** Per-document rates r_d = s_d / n_d. */
export function documentRates(stats: DocumentStats): Float64Array {
  const r = new Float64Array(stats.n.length);
  for (let d = 0; d < r.length; d++) r[d] = (stats.s[d] as number) / (stats.n[d] as number);
  return r;
}

/**
 * Macro average r̄ = (1/K) Σ r_d: the expected rate of a typical document.
 *
 * @example macroEstimate(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => 0.5375
 */
export function macroEstimate(stats: DocumentStats): number {
  const k = stats.n.length;
  const sum = new NeumaierSum();
  for (let d = 0; d < k; d++) sum.add((stats.s[d] as number) / (stats.n[d] as number));
  return sum.value() / k;
}
