import type { DocumentStats, StandardError } from "../types.js";
import type { IntraclassCorrelation } from "./icc.js";
import { type DocumentInfluence, influence } from "./influence.js";
import type { DesignEffect } from "./kishDeff.js";
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

/**
 * Every diagnostic of SPEC §5. They explain the interval; they never replace it. The ICC and
 * Kish DEFF come in with the intervals (wald-effective-n is built on DEFF).
 */
export function diagnose(
  stats: DocumentStats,
  computed: {
    readonly microCr2: StandardError;
    readonly microWaldIid: StandardError;
    readonly icc: IntraclassCorrelation;
    readonly designEffect: DesignEffect;
  },
): Diagnostics {
  const { microCr2, microWaldIid, designEffect } = computed;
  return {
    sizes: sizeDistribution(stats),
    rates: rateDistribution(stats),
    icc: computed.icc,
    designEffect,
    varianceRatio: microWaldIid.se > 0 ? (microCr2.se / microWaldIid.se) ** 2 : null,
    influence: { micro: influence(stats, "micro"), macro: influence(stats, "macro") },
  };
}
