import chiSquareQuantileStdlib from "@stdlib/stats-base-dists-chisquare-quantile";

/**
 * Quantile of the χ² distribution with ν degrees of freedom. A module of its own so that only
 * plan, which uses it, loads it: analyze and compare load distributions.ts.
 */
export function chiSquareQuantile(p: number, df: number): number {
  return chiSquareQuantileStdlib(p, df);
}
