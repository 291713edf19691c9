import { NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats, StandardError } from "../types.js";
import { microResiduals } from "./microResiduals.js";
import { withinDocumentSumOfSquares } from "./withinDocumentSumOfSquares.js";

/**
 * Contrast: the standard error if all N results were independent (the mistake ragci exists
 * to show). Binary: √(R(1 − R)/N). Otherwise √(s²/N) with s² the sample variance (ddof 1) of
 * all results, from Σ(x − R)² = Σ_d (ss_d − s_d²/n_d) + Σ_d n_d (r_d − R)² (no cancellation).
 * Normal quantile (df null).
 *
 * @example waldIid(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { se: 0.13363, df: null }
 */
export function waldIid(stats: DocumentStats): StandardError {
  const { estimate, total } = microResiduals(stats);
  if (stats.binary) return { se: Math.sqrt((estimate * (1 - estimate)) / total), df: null };
  const k = stats.n.length;
  const sumSquares = new NeumaierSum();
  for (let d = 0; d < k; d++) {
    const n = stats.n[d] as number;
    const between = (stats.s[d] as number) / n - estimate;
    sumSquares.add(withinDocumentSumOfSquares(stats, d) + n * between * between);
  }
  return { se: Math.sqrt(sumSquares.value() / (total - 1) / total), df: null };
}
