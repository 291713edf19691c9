import { compensatedSum } from "../numeric/compensatedSum.js";
import { sampleStandardDeviation } from "../numeric/sampleStandardDeviation.js";
import type { DocumentStats } from "../types.js";

export interface CensusStratum {
  /** Positions of the stratum's documents in the census. */
  readonly documents: readonly number[];
}

export interface PredictedStandardErrors {
  readonly micro: number;
  readonly macro: number;
}

/** The census S of each estimand's term within one stratum: S_{z,h} (micro) and S_{r,h} (macro). */
export interface EstimandStandardDeviations {
  readonly micro: number;
  readonly macro: number;
}

/** The census S of a term over a stratum's documents; 0 for a stratum of one. */
function sd(values: readonly number[]): number {
  return values.length < 2 ? 0 : sampleStandardDeviation(values);
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

/** A census stratum reduced to what the predicted variance needs. */
export interface StratumSummary {
  /** M_h, documents in the stratum. */
  readonly population: number;
  /** The census S_h of each estimand's term: S_{z,h} (micro) and S_{r,h} (macro). */
  readonly sd: EstimandStandardDeviations;
}

/** The strata of a census, summarised once so that many allocations can be predicted in O(H). */
export interface CensusStrataSummary {
  /** M, documents in the census. */
  readonly population: number;
  readonly strata: readonly StratumSummary[];
}

/** M_h and the census S_h of each stratum (one pass over the census terms). */
export function summarizeCensusStrata(
  census: DocumentStats,
  strata: readonly CensusStratum[],
): CensusStrataSummary {
  const terms = censusTerms(census);
  return {
    population: census.n.length,
    strata: strata.map((h) => ({
      population: h.documents.length,
      sd: {
        micro: sd(h.documents.map((d) => terms.micro[d] as number)),
        macro: sd(h.documents.map((d) => terms.macro[d] as number)),
      },
    })),
  };
}

/**
 * Predicted se with K_h documents drawn from each summarised stratum (Cochran 1977 §5.3):
 * micro Var = Σ_h M_h²(1 − f_h) S²_{z,h}/K_h, macro Var = Σ_h W_h²(1 − f_h) S²_{r,h}/K_h,
 * W_h = M_h/M, f_h = K_h/M_h.
 */
export function predictedStandardErrorsOfSummary(
  summary: CensusStrataSummary,
  sampled: readonly number[],
): PredictedStandardErrors {
  const M = summary.population;
  let micro = 0;
  let macro = 0;
  summary.strata.forEach((h, i) => {
    const Mh = h.population;
    const Kh = sampled[i] as number;
    const fpc = 1 - Kh / Mh;
    micro += (Mh * Mh * fpc * h.sd.micro ** 2) / Kh;
    macro += ((Mh / M) ** 2 * fpc * h.sd.macro ** 2) / Kh;
  });
  return { micro: Math.sqrt(micro), macro: Math.sqrt(macro) };
}

/**
 * Predicted se of the stratified estimators with K_h documents drawn from each stratum of a
 * census (Cochran 1977 §5.3), with the census S of each stratum; see
 * predictedStandardErrorsOfSummary. One stratum holding everything gives the SRS prediction.
 *
 * @example // rates 0.5, 1 | 0.25, 0.75: S²_r,h = 0.125 each, macro Var = 2 × 0.5²·(1 − ½)·0.125;
 *   // z_d = (s_d − 7/12·n_d)/12 = −1, 5 | −8, 4 (/72): micro Var = 2²·½·(S²_z,1 + S²_z,2) = 0.034722
 *   predictedStandardErrors(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 2, 4, 4], s: [1, 2, 1, 3] }), [{ documents: [0, 1] }, { documents: [2, 3] }], [1, 1])
 *   // => { micro: 0.18634, macro: 0.17678 }
 */
export function predictedStandardErrors(
  census: DocumentStats,
  strata: readonly CensusStratum[],
  sampled: readonly number[],
): PredictedStandardErrors {
  return predictedStandardErrorsOfSummary(summarizeCensusStrata(census, strata), sampled);
}

/** The census S of a stratum for each estimand (for Neyman allocation). */
export function stratumStandardDeviations(
  census: DocumentStats,
  stratum: CensusStratum,
): EstimandStandardDeviations {
  return (summarizeCensusStrata(census, [stratum]).strata[0] as StratumSummary).sd;
}
