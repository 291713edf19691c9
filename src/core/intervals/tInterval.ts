import { normalQuantile, tQuantile } from "../numeric/distributions.js";
import type { AvailableInterval, StandardError } from "../types.js";

/** Two-sided quantile for the level: t(1 − α/2; ν), or the normal one when ν is null. */
export function criticalValue(level: number, df: number | null): number {
  const p = 1 - (1 - level) / 2;
  return df === null ? normalQuantile(p) : tQuantile(p, df);
}

/** estimate ± q·se with q = t(1 − α/2; ν) (normal when ν is null). */
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
