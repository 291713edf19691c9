import type { DocumentStats, StandardError } from "../types.js";
import { type IntraclassCorrelation, icc } from "./icc.js";
import { type DocumentInfluence, influence } from "./influence.js";
import { type DesignEffect, kishDeff } from "./kishDeff.js";
import { type RateDistribution, rateDistribution } from "./rateDistribution.js";
import { type SizeDistribution, sizeDistribution } from "./sizeDistribution.js";

export interface Diagnostics {
  readonly sizes: SizeDistribution;
  readonly rates: RateDistribution;
  readonly icc: IntraclassCorrelation;
  readonly designEffect: DesignEffect;
  /** cr2 variance / wald-iid variance of the micro estimate; null when wald-iid is 0. */
  readonly varianceRatio: number | null;
  readonly influence: {
    readonly micro: readonly DocumentInfluence[];
    readonly macro: readonly DocumentInfluence[];
  };
}

/** Every diagnostic of SPEC §5. They explain the interval; they never replace it. */
export function diagnose(
  stats: DocumentStats,
  microCr2: StandardError,
  microWaldIid: StandardError,
): Diagnostics {
  const correlation = icc(stats);
  // Where the ICC is undefined (every n_d = 1, or no variation at all) DEFF does not depend on it.
  const designEffect = kishDeff(stats, correlation.available ? correlation.icc : 0);
  return {
    sizes: sizeDistribution(stats),
    rates: rateDistribution(stats),
    icc: correlation,
    designEffect,
    varianceRatio: microWaldIid.se > 0 ? (microCr2.se / microWaldIid.se) ** 2 : null,
    influence: { micro: influence(stats, "micro"), macro: influence(stats, "macro") },
  };
}
