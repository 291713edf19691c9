import { expit, logit } from "../numeric/distributions.js";
import type { Interval, StandardError } from "../types.js";
import { criticalValue } from "./tInterval.js";

/**
 * Delta method on the logit scale: se_logit = se / (θ(1 − θ)), interval
 * expit(logit θ ± q·se_logit) with the same ν as `error`. Stays inside (0, 1).
 * Unavailable (never clipped) when the metric is not known to lie in [0, 1] or θ is exactly 0 or 1.
 *
 * @example logitInterval(0.5, { se: 0.1, df: 3 }, 0.95, true)
 *   // => { lower: 0.21875, upper: 0.78125, seLogit: 0.4 }
 */
export function logitInterval(
  estimate: number,
  error: StandardError,
  level: number,
  metricInUnitInterval: boolean,
): Interval {
  if (!metricInUnitInterval) return { available: false, reason: "metric not in [0, 1]" };
  if (estimate === 0 || estimate === 1) {
    return {
      available: false,
      reason: `estimate is exactly ${estimate}: the logit is infinite; report the zeros and ones instead`,
    };
  }
  const q = criticalValue(level, error.df);
  const seLogit = error.se / (estimate * (1 - estimate));
  const centre = logit(estimate);
  return {
    available: true,
    lower: expit(centre - q * seLogit),
    upper: expit(centre + q * seLogit),
    se: error.se,
    seLogit,
    df: error.df,
    q,
  };
}
