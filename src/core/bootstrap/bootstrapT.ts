import { quantilesType7 } from "../numeric/quantileType7.js";
import type { Interval } from "../types.js";

/**
 * Bootstrap-t (studentised) interval: θ̂ − t*_hi·se, θ̂ − t*_lo·se, with t*_lo and t*_hi the
 * α/2 and 1 − α/2 quantiles (type 7) of the non-degenerate studentised replicates and se the
 * original standard error (macro: sd(r_d)/√K; micro: CR1). Degenerate replicates (zero SE)
 * are dropped and their fraction reported; if all are degenerate the interval is unavailable.
 */
export interface BootstrapTInput {
  readonly estimate: number;
  /** The original standard error that studentised the replicates. */
  readonly se: number;
  readonly studentised: Float64Array;
  /** 1 where a replicate's SE was zero (dropped). */
  readonly degenerate: Uint8Array;
  readonly level: number;
  readonly seed: number;
}

/**
 * The bootstrap-t interval of BootstrapTInput from its studentised replicates.
 *
 * @example // level 0.5: t*_lo, t*_hi = the quartiles −1 and 1 of the five kept; 0.5 ∓ 1 × 0.1
 *   bootstrapT({ estimate: 0.5, se: 0.1, studentised: Float64Array.of(-2, -1, 0, 1, 2, 9), degenerate: Uint8Array.of(0, 0, 0, 0, 0, 1), level: 0.5, seed: 1 })
 *   // => { available: true, lower: 0.4000, upper: 0.6000, resampling: { replicates: 6, replicatesUsed: 5, degenerate: 0.16667 } }
 */
export function bootstrapT({
  estimate,
  se,
  studentised,
  degenerate,
  level,
  seed,
}: BootstrapTInput): Interval {
  const kept = studentised.filter((_, b) => degenerate[b] === 0);
  const alpha = 1 - level;
  return bootstrapTFromQuantiles({
    estimate,
    se,
    replicates: studentised.length,
    used: kept.length,
    // Only the four order statistics the two quantiles read: one pass, no sort.
    quantiles:
      kept.length === 0
        ? null
        : (quantilesType7(kept, [alpha / 2, 1 - alpha / 2]) as [number, number]),
    seed,
  });
}

/**
 * The bootstrap-t interval from t*_lo and t*_hi (null when no replicate was kept), B and the
 * number used: the form documentBootstrapQuantiles feeds without the replicates themselves.
 */
export function bootstrapTFromQuantiles(input: {
  readonly estimate: number;
  readonly se: number;
  readonly replicates: number;
  readonly used: number;
  readonly quantiles: readonly [number, number] | null;
  readonly seed: number;
}): Interval {
  const { estimate, se, replicates, used, seed } = input;
  const resampling = {
    replicates,
    replicatesUsed: used,
    degenerate: replicates === 0 ? 0 : (replicates - used) / replicates,
    seed,
  };
  if (replicates === 0)
    return { available: false, reason: "no bootstrap replicates (B = 0)", resampling };
  if (input.quantiles === null)
    return { available: false, reason: "all bootstrap replicates have zero SE", resampling };
  const [tLower, tUpper] = input.quantiles;
  return {
    available: true,
    lower: estimate - tUpper * se,
    upper: estimate - tLower * se,
    se,
    df: null,
    q: null,
    resampling: { ...resampling, tLower, tUpper },
  };
}
