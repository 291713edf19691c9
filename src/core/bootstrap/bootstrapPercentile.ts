import { selectRanks } from "../numeric/orderStatistics.js";
import { quantileType7, type7Ranks } from "../numeric/quantileType7.js";
import type { Interval } from "../types.js";

/**
 * Percentile interval: the α/2 and 1 − α/2 quantiles (type 7, numpy's default) of the
 * replicate estimates. No se, no ν.
 */
export function bootstrapPercentile(
  replicateEstimates: Float64Array,
  level: number,
  detail: { readonly seed: number; readonly degenerate: number },
): Interval {
  const alpha = 1 - level;
  // The two quantiles read four order statistics: O(B) selection instead of a sort.
  const sorted = Float64Array.from(replicateEstimates);
  if (sorted.length > 0) selectRanks(sorted, type7Ranks(sorted.length, [alpha / 2, 1 - alpha / 2]));
  const resampling = {
    replicates: sorted.length,
    replicatesUsed: sorted.length,
    degenerate: detail.degenerate,
    seed: detail.seed,
  };
  if (sorted.length === 0)
    return { available: false, reason: "no bootstrap replicates (B = 0)", resampling };
  return {
    available: true,
    lower: quantileType7(sorted, alpha / 2),
    upper: quantileType7(sorted, 1 - alpha / 2),
    se: null,
    df: null,
    q: null,
    resampling,
  };
}
