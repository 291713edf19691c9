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
 *
 * @example // the se of the cr2 and waldIid examples: (0.15407/0.13363)² = 1.329; without b the
 *   // micro estimate falls from 7/14 to 4/11, by 0.13636
 *   diagnose(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { microCr2: { se: 0.15407, df: 2.6661 }, microWaldIid: { se: 0.13363, df: null }, icc: { available: true, icc: 0.1125, msb: 0.35, msw: 0.245, n0: 3.381 }, designEffect: { deff: 1.3214, effectiveN: 10.595 } })
 *   // => { varianceRatio: 1.329, sizes: { largestDocument: "c", equalSizes: false }, influence: { micro: [{ document: "b", change: -0.13636 }, { document: "d", change: 0.10000 }, { document: "c", change: 0.05556 }] } }
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
