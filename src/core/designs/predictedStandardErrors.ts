import { compensatedSum, compensatedSumOf } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";

export interface CensusStratum {
  /** Positions of the stratum's documents in the census. */
  readonly documents: readonly number[];
}

export interface PredictedStandardErrors {
  readonly micro: number;
  readonly macro: number;
}

function sd(values: readonly number[]): number {
  const k = values.length;
  if (k < 2) return 0;
  const mean = compensatedSum(values) / k;
  return Math.sqrt(compensatedSumOf(k, (i) => ((values[i] as number) - mean) ** 2) / (k - 1));
}

/** Per-document quantities of a census whose spread drives each estimand's variance. */
export function censusTerms(census: DocumentStats): { micro: Float64Array; macro: Float64Array } {
  const N = compensatedSum(census.n);
  const R = compensatedSum(census.s) / N;
  const k = census.n.length;
  return {
    // z_d = (s_d − R n_d)/N: the micro linearisation; the macro term is the rate itself.
    micro: Float64Array.from(
      { length: k },
      (_, d) => ((census.s[d] as number) - R * (census.n[d] as number)) / N,
    ),
    macro: Float64Array.from(
      { length: k },
      (_, d) => (census.s[d] as number) / (census.n[d] as number),
    ),
  };
}

/**
 * Predicted se of the stratified estimators with K_h documents drawn from each stratum of a
 * census (Cochran 1977 §5.3): micro Var = Σ_h M_h²(1 − f_h) S²_{z,h}/K_h, macro
 * Var = Σ_h W_h²(1 − f_h) S²_{r,h}/K_h, with the census S of each stratum. One stratum
 * holding everything gives the SRS prediction.
 */
export function predictedStandardErrors(
  census: DocumentStats,
  strata: readonly CensusStratum[],
  sampled: readonly number[],
): PredictedStandardErrors {
  const terms = censusTerms(census);
  const M = census.n.length;
  let micro = 0;
  let macro = 0;
  strata.forEach((h, i) => {
    const Mh = h.documents.length;
    const Kh = sampled[i] as number;
    const fpc = 1 - Kh / Mh;
    micro += (Mh * Mh * fpc * sd(h.documents.map((d) => terms.micro[d] as number)) ** 2) / Kh;
    macro += ((Mh / M) ** 2 * fpc * sd(h.documents.map((d) => terms.macro[d] as number)) ** 2) / Kh;
  });
  return { micro: Math.sqrt(micro), macro: Math.sqrt(macro) };
}

/** The census S of a stratum for each estimand (for Neyman allocation). */
export function stratumStandardDeviations(
  census: DocumentStats,
  stratum: CensusStratum,
): PredictedStandardErrors {
  const terms = censusTerms(census);
  return {
    micro: sd(stratum.documents.map((d) => terms.micro[d] as number)),
    macro: sd(stratum.documents.map((d) => terms.macro[d] as number)),
  };
}
