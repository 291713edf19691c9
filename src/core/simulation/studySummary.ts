import { macroEstimate } from "../estimands/macroEstimate.js";
import { microEstimate } from "../estimands/microEstimate.js";
import { NeumaierSum } from "../numeric/compensatedSum.js";
import { quantileType7, sortedCopy } from "../numeric/quantileType7.js";
import type { DocumentStats, Estimand } from "../types.js";
import {
  type RepetitionResults,
  STUDY_METHODS,
  type StudyMethod,
  type StudyOptions,
  studyMethods,
} from "./coverageStudy.js";
import { expectedDocuments } from "./twoStageSample.js";

/** SPEC §8's fields for one method at one K. Fractions are of all repetitions unless named. */
export interface MethodScore {
  /** Intervals that contain the census value; an unavailable one counts as not covering. */
  readonly coverage: number;
  /** The same among available intervals only (null when none was available). */
  readonly coverageAvailable: number | null;
  /** Monte-Carlo standard error of `coverage`, √(p(1 − p)/reps). */
  readonly mcse: number;
  readonly meanWidth: number | null;
  readonly medianWidth: number | null;
  readonly unavailable: number;
  readonly zeroWidth: number;
  /** Interval wholly below the census value (upper < truth), and wholly above it. */
  readonly missBelow: number;
  readonly missAbove: number;
  /** Intervals reaching below 0 or above 1. */
  readonly outside01: number;
  readonly meanDf: number | null;
  /** Bootstraps: the mean fraction of degenerate (zero-SE) replicates. */
  readonly meanDegenerateFraction?: number;
}

/** The estimator itself across repetitions: bias, sd (of the repetitions, ddof 0) and rmse. */
export interface EstimatorScore {
  readonly bias: number;
  readonly sd: number;
  readonly rmse: number;
}

export interface StudyResult {
  readonly k: number;
  readonly reps: number;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly fpc: boolean;
  /**
   * How each sample was drawn: SRS of K, k_h of each of the strata's M_h documents, or m of
   * the T first-stage units and k documents in each (then K = m·k is the most a sample holds).
   */
  readonly design:
    | { readonly kind: "srs" }
    | {
        readonly kind: "stratified";
        readonly strata: readonly {
          readonly name: string;
          readonly population: number;
          readonly sampled: number;
        }[];
      }
    | {
        readonly kind: "two-stage";
        readonly units: number;
        readonly firstStagePopulation: number;
        readonly perUnit: number;
        /** E[K] = (m/T) Σ_i min(k, M_i). */
        readonly expectedDocuments: number;
      };
  readonly estimators: Readonly<Record<Estimand, EstimatorScore>>;
  readonly methods: Readonly<Record<StudyMethod, MethodScore>>;
}

/** The census values a study scores against: micro Σs/Σn and macro mean of r_d. */
export function censusTruth(census: DocumentStats): Record<Estimand, number> {
  return { micro: microEstimate(census), macro: macroEstimate(census) };
}

function mean(sum: NeumaierSum, count: number): number | null {
  return count === 0 ? null : sum.value() / count;
}

/**
 * Scores every method of a finished study (repetitions in order, so the sums are fixed).
 *
 * @example // two repetitions of K = 2; census micro 4/8 = macro 0.5; one interval scored (micro/cr2,
 *   // the first method): [0.3, 0.5] covers 0.5, [0.55, 0.65] misses above; the 19 others NaN
 *   summarizeStudy(documentStats({ ids: ["a", "b", "c"], n: [2, 2, 4], s: [1, 1, 2] }), { documents: 2, repetitions: 2, replicates: 0, seed: 1, level: 0.95, fpc: true }, { from: 0, to: 2, lower: Float64Array.from({ length: 40 }, (_, i) => [0.3, 0.55][i] ?? NaN), upper: Float64Array.from({ length: 40 }, (_, i) => [0.5, 0.65][i] ?? NaN), df: new Float64Array(40).fill(NaN), degenerate: new Float64Array(40).fill(NaN), estimates: Float64Array.of(0.4, 0.6, 0.5, 0.7) })
 *   // => { reps: 2, estimators: { micro: { bias: 0, sd: 0.10000, rmse: 0.10000 }, macro: { bias: 0.10000, sd: 0.10000, rmse: 0.14142 } }, methods: { "micro/cr2": { coverage: 0.5000, missAbove: 0.5000, meanWidth: 0.15000, unavailable: 0 }, "macro/t": { unavailable: 1 } } }
 */
export function summarizeStudy(
  census: DocumentStats,
  options: StudyOptions,
  results: RepetitionResults,
): StudyResult {
  const reps = results.to - results.from;
  const truth = censusTruth(census);
  const estimators = {} as Record<Estimand, EstimatorScore>;
  (["micro", "macro"] as const).forEach((estimand, e) => {
    const error = new NeumaierSum();
    const squared = new NeumaierSum();
    for (let r = 0; r < reps; r++) {
      const x = (results.estimates[e * reps + r] as number) - truth[estimand];
      error.add(x);
      squared.add(x * x);
    }
    const bias = error.value() / reps;
    const rmse = Math.sqrt(squared.value() / reps);
    estimators[estimand] = { bias, sd: Math.sqrt(Math.max(0, rmse * rmse - bias * bias)), rmse };
  });
  const methods = {} as Record<StudyMethod, MethodScore>;
  const scored = new Set(studyMethods(options));
  STUDY_METHODS.forEach((key, m) => {
    if (!scored.has(key)) return;
    const target = truth[key.split("/")[0] as Estimand];
    let covered = 0;
    let available = 0;
    let zero = 0;
    let below = 0;
    let above = 0;
    let outside = 0;
    let dfCount = 0;
    let degenerateCount = 0;
    const width = new NeumaierSum();
    const dfSum = new NeumaierSum();
    const degenerateSum = new NeumaierSum();
    const widths: number[] = [];
    for (let r = 0; r < reps; r++) {
      const at = m * reps + r;
      const d = results.degenerate[at] as number;
      if (!Number.isNaN(d)) {
        degenerateSum.add(d);
        degenerateCount++;
      }
      const lo = results.lower[at] as number;
      const hi = results.upper[at] as number;
      if (Number.isNaN(lo)) continue;
      available++;
      if (lo <= target && target <= hi) covered++;
      else if (hi < target) below++;
      else above++;
      if (hi === lo) zero++;
      if (lo < 0 || hi > 1) outside++;
      width.add(hi - lo);
      widths.push(hi - lo);
      const f = results.df[at] as number;
      if (!Number.isNaN(f)) {
        dfSum.add(f);
        dfCount++;
      }
    }
    const coverage = covered / reps;
    methods[key] = {
      coverage,
      coverageAvailable: available === 0 ? null : covered / available,
      mcse: Math.sqrt((coverage * (1 - coverage)) / reps),
      meanWidth: mean(width, available),
      medianWidth:
        available === 0 ? null : quantileType7(sortedCopy(Float64Array.from(widths)), 0.5),
      unavailable: (reps - available) / reps,
      zeroWidth: zero / reps,
      missBelow: below / reps,
      missAbove: above / reps,
      outside01: outside / reps,
      meanDf: mean(dfSum, dfCount),
      ...(degenerateCount > 0
        ? { meanDegenerateFraction: degenerateSum.value() / degenerateCount }
        : {}),
    };
  });
  return {
    k: options.documents,
    reps,
    replicates: options.replicates,
    seed: options.seed,
    level: options.level,
    fpc: options.fpc,
    design: options.strata
      ? {
          kind: "stratified",
          strata: options.strata.names.map((name, h) => ({
            name,
            population: options.strata?.members[h]?.length as number,
            sampled: options.strata?.sampled[h] as number,
          })),
        }
      : options.units
        ? {
            kind: "two-stage",
            units: options.units.sampledUnits,
            firstStagePopulation: options.units.names.length,
            perUnit: options.units.perUnit,
            expectedDocuments: expectedDocuments(options.units),
          }
        : { kind: "srs" },
    estimators,
    methods,
  };
}
