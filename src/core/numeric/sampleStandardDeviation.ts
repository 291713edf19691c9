import { compensatedSum, compensatedSumOf } from "./compensatedSum.js";

/**
 * Sample variance with ddof 1: s² = Σ (x_i − x̄)² / (k − 1), x̄ = Σ x_i / k, both sums
 * compensated (two passes, as numpy's `var(ddof=1)` and R's `var`).
 *
 * @throws RangeError when k < 2 (the callers check the number of documents first)
 * @example sampleVariance([1, 2, 4]) // => 2.333…
 */
export function sampleVariance(values: ArrayLike<number>): number {
  const k = values.length;
  if (k < 2) throw new RangeError(`a sample variance needs at least 2 values, got ${k}`);
  const mean = compensatedSum(values) / k;
  return compensatedSumOf(k, (i) => ((values[i] as number) - mean) ** 2) / (k - 1);
}

/**
 * Sample standard deviation with ddof 1: s = √(Σ (x_i − x̄)² / (k − 1)); see sampleVariance.
 *
 * @throws RangeError when k < 2
 * @example sampleStandardDeviation([1, 2, 4]) // => 1.5275…
 */
export function sampleStandardDeviation(values: ArrayLike<number>): number {
  return Math.sqrt(sampleVariance(values));
}
