import { analyzeIntervals } from "../analyzeIntervals.js";
import { optionRef, RagciError } from "../errors.js";
import { groupedInteger } from "../groupedInteger.js";
import type { MethodId } from "../methods.js";
import type { DocumentStats, Estimand, Interval } from "../types.js";
import { refuseDegenerateStudy } from "./degenerateStudy.js";
import { sampleIndices, sampleStats } from "./sampleDocuments.js";
import { type StudyStrata, stratifiedIndices } from "./stratifiedSample.js";
import { MAX_STUDY_REPETITIONS } from "./studyRepetitions.js";
import { type StudyUnits, twoStageIndices } from "./twoStageSample.js";

/** A scored interval: "micro/cr2", "macro/t", … (the keys of SPEC §10's `methods`). */
export type StudyMethod = `${Estimand}/${MethodId}`;

/** Every interval of `analyze` a study scores, contrasts included (SPEC §8). */
export const STUDY_METHODS: readonly StudyMethod[] = [
  "micro/cr2",
  "micro/logit-cv3",
  "micro/logit",
  "micro/bootstrap-t",
  "micro/bootstrap-percentile",
  "micro/cr1",
  "micro/wald-iid",
  "micro/wald-effective-n",
  "micro/chunk-bootstrap",
  "macro/t",
  "macro/t-differing",
  "macro/logit",
  "macro/bootstrap-t",
  "macro/bootstrap-percentile",
  "macro/wald-iid",
  "macro/wald-effective-n",
  "macro/chunk-bootstrap",
  "micro/stratified",
  "macro/stratified",
  "micro/two-stage",
  "macro/two-stage",
];

/** STUDY_METHODS split into estimand and method once (a study reads them at every repetition). */
const METHOD_PARTS = STUDY_METHODS.map((key) => key.split("/") as [Estimand, MethodId]);

/**
 * The methods a study with these options scores (the chunk bootstrap only when asked; t with
 * ν = D − 1 only for paired differences, the only data it is computed for).
 */
export function studyMethods(options: {
  readonly chunkBootstrap?: boolean;
  readonly differences?: boolean;
  readonly strata?: StudyStrata | null;
  readonly units?: StudyUnits | null;
}): StudyMethod[] {
  return STUDY_METHODS.filter(
    (m) =>
      (options.chunkBootstrap || !m.endsWith("/chunk-bootstrap")) &&
      (options.differences || !m.endsWith("/t-differing")) &&
      (options.strata || !m.endsWith("/stratified")) &&
      (options.units || !m.endsWith("/two-stage")),
  );
}

export interface StudyOptions {
  /** K, documents per sample. */
  readonly documents: number;
  readonly repetitions: number;
  /** B, bootstrap replicates per repetition (0: no bootstrap intervals). */
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  /** Apply the finite-population correction 1 − K/M (the samples are without replacement). */
  readonly fpc: boolean;
  /** Score the chunk bootstrap (a contrast: 2K binomial draws per replicate, most of the cost). */
  readonly chunkBootstrap?: boolean;
  /** The census holds paired differences b − a (a paired study): analysed as compare does. */
  readonly differences?: boolean;
  /**
   * A stratified design (size strata, allocation): each repetition samples k_h of each stratum
   * and the stratified interval is scored next to the SRS ones. Σ k_h must equal `documents`.
   */
  readonly strata?: StudyStrata | null;
  /**
   * A two-stage design (first-stage units of the census): each repetition draws m units, then
   * k documents in each, and the two-stage interval is scored next to the SRS ones (which then
   * treat the sample as SRS: the article's contrast). `documents` is then m·k, the most a
   * sample holds; units with fewer documents are taken whole.
   */
  readonly units?: StudyUnits | null;
}

/** Why a study leaves the chunk bootstrap out unless asked. */
export const CHUNK_BOOTSTRAP_SKIPPED = `not scored by default: a contrast that ignores the documents (the article's study: 59.7% for macro at K = 20), and its 2K binomial draws per replicate cost more than every other method together; ask for it with ${optionRef("chunkBootstrap")}`;

/**
 * What repetitions from..to−1 produced, flat and in repetition order so that the work can be
 * split between threads and joined without changing a bit: per method and repetition the
 * bounds and ν (NaN where unavailable or none) and the bootstrap's degenerate fraction, and
 * per estimand the estimate.
 */
export interface RepetitionResults {
  readonly from: number;
  readonly to: number;
  /** [method × repetition], method in STUDY_METHODS order. */
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly df: Float64Array;
  readonly degenerate: Float64Array;
  /** [estimand × repetition], micro then macro. */
  readonly estimates: Float64Array;
}

export function checkStudyOptions(census: DocumentStats, options: StudyOptions): void {
  const M = census.n.length;
  const K = options.documents;
  if (options.strata && options.units) {
    throw new RagciError("invalid-option", "a study has one design: strata or units, not both");
  }
  if (!Number.isInteger(K) || K < 2) {
    throw new RagciError(
      "invalid-option",
      `K = ${K}: a study draws at least 2 of the census's ${M} documents`,
    );
  }
  // Two stages draw at most m·k documents (units smaller than k are taken whole): only SRS and
  // strata draw exactly K, so only they are sure to draw the whole census at K = M.
  if (!options.units) refuseDegenerateStudy(K, M, `K = ${K}`);
  const repetitions = options.repetitions;
  if (!Number.isInteger(repetitions) || repetitions < 1 || repetitions > MAX_STUDY_REPETITIONS) {
    throw new RagciError(
      "invalid-option",
      `repetitions ${repetitions}: give a whole number from 1 to ${groupedInteger(MAX_STUDY_REPETITIONS)}`,
    );
  }
}

/** Runs repetitions from..to−1 of the study (pure: the same input gives the same bits). */
export function runRepetitions(
  census: DocumentStats,
  options: StudyOptions,
  from: number,
  to: number,
  onRepetition?: () => void,
): RepetitionResults {
  checkStudyOptions(census, options);
  const reps = to - from;
  const methods = STUDY_METHODS.length;
  const lower = new Float64Array(methods * reps).fill(Number.NaN);
  const upper = new Float64Array(methods * reps).fill(Number.NaN);
  const df = new Float64Array(methods * reps).fill(Number.NaN);
  const degenerate = new Float64Array(methods * reps).fill(Number.NaN);
  const estimates = new Float64Array(2 * reps);
  const M = census.n.length;
  for (let i = from; i < to; i++) {
    const r = i - from;
    const strata = options.strata ?? null;
    const units = options.units ?? null;
    const drawn = strata
      ? stratifiedIndices(strata, options.seed, i)
      : units
        ? twoStageIndices(units, options.seed, i)
        : null;
    const sample = sampleStats(
      census,
      drawn ? drawn.indices : sampleIndices(options.documents, M, options.seed, i),
    );
    const analysis = analyzeIntervals(sample, {
      ...(strata && drawn
        ? {
            design: {
              kind: "stratified" as const,
              strata: drawn.labels,
              populationSizes: Object.fromEntries(
                strata.names.map((name, h) => [name, strata.members[h]?.length as number]),
              ),
            },
          }
        : {}),
      ...(units && drawn
        ? {
            design: {
              kind: "two-stage" as const,
              units: drawn.labels,
              firstStagePopulation: units.names.length,
              secondStagePopulation: Object.fromEntries(
                units.names.map((name, u) => [name, units.members[u]?.length as number]),
              ),
            },
          }
        : {}),
      level: options.level,
      population: options.fpc ? M : null,
      differences: options.differences ?? false,
      replicates: options.replicates,
      seed: options.seed,
      spawnKeys: { documents: [i, 1], chunks: [i, 2] },
      resamplingSkipped: "B = 0: no bootstrap in this study",
      chunkBootstrapSkipped: options.chunkBootstrap ? null : CHUNK_BOOTSTRAP_SKIPPED,
    });
    estimates[r] = analysis.micro.estimate;
    estimates[reps + r] = analysis.macro.estimate;
    METHOD_PARTS.forEach(([estimand, method], m) => {
      const interval: Interval | undefined = analysis[estimand].intervals[method];
      if (!interval) return;
      if (interval.resampling) degenerate[m * reps + r] = interval.resampling.degenerate;
      if (!interval.available) return;
      lower[m * reps + r] = interval.lower;
      upper[m * reps + r] = interval.upper;
      if (interval.df !== null) df[m * reps + r] = interval.df;
    });
    onRepetition?.();
  }
  return { from, to, lower, upper, df, degenerate, estimates };
}

/** Joins consecutive pieces (in repetition order) into one. */
export function joinRepetitions(parts: readonly RepetitionResults[]): RepetitionResults {
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  const from = sorted[0]?.from ?? 0;
  const to = sorted[sorted.length - 1]?.to ?? 0;
  const reps = to - from;
  const methods = STUDY_METHODS.length;
  const join = (field: "lower" | "upper" | "df" | "degenerate", rows: number) => {
    const out = new Float64Array(rows * reps);
    for (const part of sorted) {
      const width = part.to - part.from;
      for (let m = 0; m < rows; m++)
        out.set(part[field].subarray(m * width, (m + 1) * width), m * reps + (part.from - from));
    }
    return out;
  };
  const estimates = new Float64Array(2 * reps);
  for (const part of sorted) {
    const width = part.to - part.from;
    for (let e = 0; e < 2; e++)
      estimates.set(
        part.estimates.subarray(e * width, (e + 1) * width),
        e * reps + (part.from - from),
      );
  }
  return {
    from,
    to,
    lower: join("lower", methods),
    upper: join("upper", methods),
    df: join("df", methods),
    degenerate: join("degenerate", methods),
    estimates,
  };
}
