import normalQuantileStdlib from "@stdlib/stats-base-dists-normal-quantile";
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import tQuantileStdlib from "@stdlib/stats-base-dists-t-quantile";

/** Quantile of Student's t with ν degrees of freedom (ν may be non-integer). */
export function tQuantile(p: number, df: number): number {
  return tQuantileStdlib(p, df);
}

/** Quantile of the standard normal distribution. */
export function normalQuantile(p: number): number {
  return normalQuantileStdlib(p, 0, 1);
}

/** Two-sided p-value of a t statistic with ν degrees of freedom. */
export function tTwoSidedPValue(t: number, df: number): number {
  return 2 * tCdf(-Math.abs(t), df);
}

export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** Inverse logit, written to stay accurate for large |x|. */
export function expit(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}
