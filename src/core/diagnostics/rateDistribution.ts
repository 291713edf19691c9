import { documentRates } from "../estimands/macroEstimate.js";
import type { DocumentStats } from "../types.js";
import { type FiveNumbers, fiveNumbers } from "./sizeDistribution.js";

export interface RateDistribution {
  readonly quantiles: FiveNumbers;
  /** Fraction of documents whose rate is exactly 0 (s_d = 0). */
  readonly fractionZero: number;
  /** Fraction of documents whose rate is exactly 1 (s_d = n_d). */
  readonly fractionOne: number;
  /** Whether every document has the same rate (s_i·n_j = s_j·n_i for all pairs). */
  readonly allEqual: boolean;
}

/** Whether every document has the same rate s_d/n_d (s_i·n_j = s_j·n_i against the first). */
export function allRatesEqual(stats: {
  readonly n: ArrayLike<number>;
  readonly s: ArrayLike<number>;
}): boolean {
  const n0 = stats.n[0] as number;
  const s0 = stats.s[0] as number;
  for (let d = 1; d < stats.n.length; d++) {
    // Cross-multiplied so 1/3 and 2/6 compare equal without rounding.
    if ((stats.s[d] as number) * n0 !== s0 * (stats.n[d] as number)) return false;
  }
  return true;
}

/** The distribution of r_d = s_d / n_d and the share of documents at exactly 0 and 1. */
export function rateDistribution(stats: DocumentStats): RateDistribution {
  const k = stats.n.length;
  let zeros = 0;
  let ones = 0;
  for (let d = 0; d < k; d++) {
    const n = stats.n[d] as number;
    const s = stats.s[d] as number;
    if (s === 0) zeros++;
    if (s === n) ones++;
  }
  return {
    quantiles: fiveNumbers(documentRates(stats)),
    fractionZero: zeros / k,
    fractionOne: ones / k,
    allEqual: allRatesEqual(stats),
  };
}
