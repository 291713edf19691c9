import { microEstimate } from "../estimands/microEstimate.js";
import { expit, logit } from "../numeric/distributions.js";
import type { DocumentStats, Interval } from "../types.js";
import { cv3Variance } from "../variance/cv3.js";
import { cv3DegreesOfFreedom } from "../variance/cv3DegreesOfFreedom.js";
import { finitePopulationCorrection } from "../variance/finitePopulationCorrection.js";
import { criticalValue } from "./tInterval.js";

/**
 * The `logit-cv3` interval of the micro estimate R (SPEC §3): the jackknife variance V₃ on the
 * logit scale, se_L = √(V₃·f) / (R(1 − R)), interval expit(logit R ± q·se_L), q = t(1 − α/2; ν₃).
 * f = 1 − K/M for SRS without replacement from M documents, 1 when `population` is null.
 * Stays inside (0, 1). Unavailable (never clipped) when the metric is not known to lie in
 * [0, 1], R is exactly 0 or 1, or V₃·f = 0 (every document has the same rate, or a census).
 *
 * @throws RagciError "too-few-documents" when K < 2, "single-document-holds-all" when N − n_d
 *   rounds to 0, "population-too-small"/"invalid-option" for an impossible M
 */
export function logitCv3Interval(
  stats: DocumentStats,
  level: number,
  metricInUnitInterval: boolean,
  population: number | null,
): Interval {
  const fpc = population === null ? 1 : finitePopulationCorrection(stats.n.length, population);
  const variance = cv3Variance(stats);
  if (!metricInUnitInterval) return { available: false, reason: "metric not in [0, 1]" };
  const estimate = microEstimate(stats);
  if (estimate === 0 || estimate === 1) {
    return {
      available: false,
      reason: `estimate is exactly ${estimate}: the logit is infinite; report the zeros and ones instead`,
    };
  }
  if (variance === 0) {
    return {
      available: false,
      reason: "every document has the same rate: the leave-one-document-out variance V₃ is 0",
    };
  }
  if (fpc === 0) {
    return {
      available: false,
      reason: "census (K = M): the sampling variance V₃·(1 − K/M) is 0",
    };
  }
  const df = cv3DegreesOfFreedom(stats);
  const q = criticalValue(level, df);
  const seEstimate = Math.sqrt(variance * fpc);
  const se = seEstimate / (estimate * (1 - estimate));
  const centre = logit(estimate);
  return {
    available: true,
    lower: expit(centre - q * se),
    upper: expit(centre + q * se),
    se: seEstimate,
    seLogit: se,
    df,
    q,
  };
}
