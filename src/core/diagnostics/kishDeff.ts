import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";

export interface DesignEffect {
  /** Kish DEFF = 1 + (Σ n_d²/N − 1) · max(ICC, 0). */
  readonly deff: number;
  /** N / DEFF: what N results are "worth" under the cluster model; a diagnostic only. */
  readonly effectiveN: number;
}

/**
 * Kish's design effect for cluster sampling with unequal sizes (Kish 1965 §5.4).
 *
 * @example kishDeff(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), 0.2)
 *   // => { deff: 1.5714, effectiveN: 8.9091 }
 */
export function kishDeff(stats: DocumentStats, iccValue: number): DesignEffect {
  const total = compensatedSum(stats.n);
  const squares = new NeumaierSum();
  for (let d = 0; d < stats.n.length; d++) squares.add((stats.n[d] as number) ** 2);
  const meanSizeWeighted = squares.value() / total;
  const deff = 1 + (meanSizeWeighted - 1) * Math.max(iccValue, 0);
  return { deff, effectiveN: total / deff };
}
