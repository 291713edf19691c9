import { normalQuantile, tQuantile } from "../numeric/distributions.js";
import type { AvailableInterval, StandardError } from "../types.js";
import { validateLevel } from "./level.js";

/**
 * The last few (level, ν) → t quantiles computed. One analysis asks for the same quantile several
 * times (cr2 and logit share ν; t, cr1 and macro logit share K − 1), and a coverage study asks
 * again at every repetition; a t quantile of non-integer ν costs microseconds (incomplete-beta
 * inversion), a lookup nanoseconds. The value is the same either way. Normal quantiles (ν null)
 * are cheap and not kept, so no key stands for them.
 */
const RECENT = 8;
const recentLevel = new Float64Array(RECENT).fill(Number.NaN);
const recentDf = new Float64Array(RECENT).fill(Number.NaN);
const recentQ = new Float64Array(RECENT);
let nextSlot = 0;

/**
 * Two-sided quantile for the level: t(1 − α/2; ν), or the normal one when ν is null.
 *
 * @example criticalValue(0.95, 3)
 *   // => 3.18245
 */
export function criticalValue(level: number, df: number | null): number {
  // The last quantile's level was checked; a new one is checked once (hot in a study's loop).
  if (level !== recentLevel[(nextSlot + RECENT - 1) % RECENT]) validateLevel(level);
  const p = 1 - (1 - level) / 2;
  if (df === null) return normalQuantile(p);
  for (let i = 0; i < RECENT; i++)
    if (recentDf[i] === df && recentLevel[i] === level) return recentQ[i] as number;
  const q = tQuantile(p, df);
  recentLevel[nextSlot] = level;
  recentDf[nextSlot] = df;
  recentQ[nextSlot] = q;
  nextSlot = (nextSlot + 1) % RECENT;
  return q;
}

/**
 * estimate ± q·se with q = t(1 − α/2; ν) (normal when ν is null).
 *
 * @example tInterval(0.5, { se: 0.1, df: 3 }, 0.95)
 *   // => { lower: 0.18176, upper: 0.81824, q: 3.18245 }
 */
export function tInterval(
  estimate: number,
  error: StandardError,
  level: number,
): AvailableInterval {
  const q = criticalValue(level, error.df);
  return {
    available: true,
    lower: estimate - q * error.se,
    upper: estimate + q * error.se,
    se: error.se,
    df: error.df,
    q,
  };
}
