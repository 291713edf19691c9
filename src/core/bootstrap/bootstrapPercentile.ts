import { validateLevel } from "../intervals/level.js";
import { quantilesType7 } from "../numeric/quantileType7.js";
import type { Interval } from "../types.js";

/**
 * Percentile interval: the α/2 and 1 − α/2 quantiles (type 7, numpy's default) of the
 * replicate estimates. No se, no ν.
 *
 * @example bootstrapPercentile(Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5), 0.5, { seed: 1, degenerate: 0 })
 *   // => { available: true, lower: 0.2, upper: 0.4, se: null }
 */
export function bootstrapPercentile(
  replicateEstimates: Float64Array,
  level: number,
  detail: { readonly seed: number; readonly degenerate: number },
): Interval {
  const alpha = 1 - validateLevel(level);
  return bootstrapPercentileFromQuantiles(
    replicateEstimates.length === 0
      ? null
      : // The two quantiles read four order statistics: one pass, no copy, no sort.
        (quantilesType7(replicateEstimates, [alpha / 2, 1 - alpha / 2]) as [number, number]),
    { replicates: replicateEstimates.length, ...detail },
  );
}

/** The percentile interval from its two quantiles (null: no replicates). */
export function bootstrapPercentileFromQuantiles(
  quantiles: readonly [number, number] | null,
  detail: { readonly replicates: number; readonly seed: number; readonly degenerate: number },
): Interval {
  const resampling = {
    replicates: detail.replicates,
    replicatesUsed: detail.replicates,
    degenerate: detail.degenerate,
    seed: detail.seed,
  };
  if (quantiles === null)
    return { available: false, reason: "no bootstrap replicates (B = 0)", resampling };
  return {
    available: true,
    lower: quantiles[0],
    upper: quantiles[1],
    se: null,
    df: null,
    q: null,
    resampling,
  };
}
