import { compensatedSum, compensatedSumOf } from "../numeric/compensatedSum.js";

/**
 * Variance of an estimated total from one SRS stage without replacement (Cochran 1977 §2.8):
 * (1 − f)·k/(k − 1)·Σ (t_j − t̄)², the t_j being the k sampled units' weighted totals and
 * f = k/N the sampling fraction. 0 for a census (f = 1). The caller guarantees k ≥ 2.
 */
export function srsTotalVariance(
  weightedTotals: readonly number[],
  samplingFraction: number,
): number {
  const k = weightedTotals.length;
  if (samplingFraction >= 1) return 0;
  const mean = compensatedSum(weightedTotals) / k;
  const squares = compensatedSumOf(k, (j) => ((weightedTotals[j] as number) - mean) ** 2);
  return (1 - samplingFraction) * (k / (k - 1)) * squares;
}
