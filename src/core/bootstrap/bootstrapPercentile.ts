import { quantilesType7 } from "../numeric/quantileType7.js";
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
  const replicates = replicateEstimates;
  const resampling = {
    replicates: replicates.length,
    replicatesUsed: replicates.length,
    degenerate: detail.degenerate,
    seed: detail.seed,
  };
  if (replicates.length === 0)
    return { available: false, reason: "no bootstrap replicates (B = 0)", resampling };
  // The two quantiles read four order statistics: one pass, no copy, no sort.
  const [lower, upper] = quantilesType7(replicates, [alpha / 2, 1 - alpha / 2]) as [number, number];
  return {
    available: true,
    lower,
    upper,
    se: null,
    df: null,
    q: null,
    resampling,
  };
}
