import type { DocumentStats } from "../types.js";
import { type DesignEstimates, designInterval } from "./designInterval.js";

/** A design's estimator of a population total, and the variance of such an estimated total. */
export interface DesignTotals {
  /** X̂ = Σ_d w_d x_d with the design's weights. */
  readonly total: (x: (d: number) => number) => number;
  /** The design-based variance of the estimated total of z. */
  readonly variance: (z: (d: number) => number) => number;
  /** The number of documents in the population (M, or its estimate). */
  readonly documents: number;
  readonly df: number;
}

/**
 * Micro and macro under a design, by linearisation (Woodruff 1971; Cochran 1977 §6.11):
 * micro R = X̂_s / X̂_n with var R = var(Σ w z_d), z_d = (s_d − R n_d)/X̂_n; macro r̄ = X̂_r / M
 * with z_d = (r_d − r̄)/M, r_d = s_d/n_d. Each interval is t(ν) on that variance.
 */
export function linearizedEstimates(
  stats: DocumentStats,
  design: DesignTotals,
  level: number,
): DesignEstimates {
  const { total, variance, documents, df } = design;
  const n = (d: number) => stats.n[d] as number;
  const s = (d: number) => stats.s[d] as number;
  const r = (d: number) => s(d) / n(d);
  const totalN = total(n);
  const ratio = total(s) / totalN;
  const mean = total(r) / documents;
  return {
    micro: designInterval(
      ratio,
      variance((d) => (s(d) - ratio * n(d)) / totalN),
      df,
      level,
    ),
    macro: designInterval(
      mean,
      variance((d) => (r(d) - mean) / documents),
      df,
      level,
    ),
  };
}
