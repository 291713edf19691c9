import { bootstrapPercentile } from "./bootstrap/bootstrapPercentile.js";
import { bootstrapT } from "./bootstrap/bootstrapT.js";
import {
  CHUNK_BOOTSTRAP_ROW_LIMIT,
  type ChunkBootstrapReplicates,
  chunkBootstrapBinary,
  chunkBootstrapRows,
  type ResultValues,
} from "./bootstrap/chunkBootstrap.js";
import { documentBootstrap } from "./bootstrap/documentBootstrap.js";
import { checkReplicates } from "./bootstrap/replicateLimit.js";
import type { DesignInterval } from "./designs/designInterval.js";
import { groupIndices } from "./designs/groupIndices.js";
import { type LonelyPsuSummary, lonelyPsuSummary } from "./designs/lonelyPsu.js";
import { type StratifiedDesign, stratifiedEstimates } from "./designs/stratified.js";
import { type TwoStageDesign, twoStageEstimates } from "./designs/twoStage.js";
import { type Diagnostics, diagnose } from "./diagnostics/diagnose.js";
import { RagciError } from "./errors.js";
import { macroEstimate } from "./estimands/macroEstimate.js";
import { microEstimate } from "./estimands/microEstimate.js";
import { logitCv3Interval } from "./intervals/logitCv3Interval.js";
import { logitInterval } from "./intervals/logitInterval.js";
import { criticalValue, tInterval } from "./intervals/tInterval.js";
import { estimandQuestion, type MethodId, recommendedMethod } from "./methods.js";
import { compensatedSum } from "./numeric/compensatedSum.js";
import { type Advice, recommendMethod } from "./recommendMethod.js";
import type { DocumentStats, Estimand, Interval, StandardError } from "./types.js";
import { cr1 } from "./variance/cr1.js";
import { cr2 } from "./variance/cr2.js";
import { finitePopulationCorrection } from "./variance/finitePopulationCorrection.js";
import { macroT } from "./variance/macroT.js";
import { requireTwoDocuments } from "./variance/requireDocuments.js";
import { waldIid } from "./variance/waldIid.js";

export interface AnalyzeOptions {
  /** Confidence level, default 0.95. */
  readonly level?: number;
  /** M, the number of documents in the population (SRS without replacement); null: infinite. */
  readonly population?: number | null;
  /** Restrict the report to one estimand; default both. */
  readonly estimand?: Estimand | null;
  /** B bootstrap replicates (default 9999); 0 skips the resampling methods. */
  readonly replicates?: number;
  /**
   * The stats are per-document sums of paired differences b − a: no logit intervals (a
   * difference is not a proportion), so cr2 and t are recommended, as the paired studies found.
   */
  readonly differences?: boolean;
  /** Why resampling is skipped, when it is not the user's B = 0 (shown as the reason). */
  readonly resamplingSkipped?: string;
  /**
   * numpy SeedSequence spawn keys of the two bootstrap streams (default: none, so the
   * document bootstrap is default_rng(seed)). A study's repetition i uses (i, 1) and (i, 2).
   */
  readonly spawnKeys?: {
    readonly documents: readonly number[];
    readonly chunks: readonly number[];
  };
  /** Why the chunk bootstrap (a contrast) is not run, when a caller skips it; null runs it. */
  readonly chunkBootstrapSkipped?: string | null;
  /**
   * Skip the chunk bootstrap (a contrast) when B·K exceeds this many document draws: its 2K
   * binomial draws per replicate then cost more than every interval that is used. null: no limit.
   */
  readonly chunkBootstrapMaxDraws?: number | null;
  /** Seed of the numpy-compatible stream (default 1). */
  readonly seed?: number;
  /** Per-query values for the chunk bootstrap of a non-binary metric (not needed for 0/1). */
  readonly values?: ResultValues | null;
  /** Which resampling runs and the fraction of it done, for a progress bar. */
  readonly onProgress?: (phase: ResamplingPhase, fraction: number) => void;
  /**
   * Skip the resampling methods (reported unavailable, with the reason) when B·K exceeds this
   * many document draws; default no limit. The CLI sets it only when B was not asked for.
   */
  readonly maxResamplingDraws?: number | null;
  /** Stratified or two-stage design; its interval becomes the recommended one. */
  readonly design?: DocumentDesign | null;
}

/**
 * The default chunkBootstrapMaxDraws: above B·K = 2·10⁶ the chunk bootstrap (a contrast) costs
 * more than every interval that is used, so it is skipped unless asked for.
 */
export const CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS = 2e6;

export type ResamplingPhase = "document bootstrap" | "chunk bootstrap";

export function validateReplicates(replicates: number, seed: number): void {
  checkReplicates(replicates);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RagciError("invalid-option", `seed ${seed} must be a whole number ≥ 0`);
  }
}

export interface EstimandAnalysis {
  readonly estimand: Estimand;
  readonly question: string;
  readonly estimate: number;
  readonly recommended: MethodId;
  readonly intervals: Readonly<Partial<Record<MethodId, Interval>>>;
}

/** A design other than SRS of documents, declared once (SPEC §4). */
export type DocumentDesign =
  | ({ readonly kind: "stratified" } & StratifiedDesign)
  | ({ readonly kind: "two-stage" } & TwoStageDesign);

export interface SrsDesignSummary {
  readonly kind: "srs" | "stratified" | "two-stage";
  /** Stratified: documents sampled per stratum and M_h; two-stage: units sampled of T. */
  readonly detail?: Readonly<Record<string, unknown>>;
  readonly unit: "document";
  readonly population: number | null;
  readonly samplingFraction: number | null;
  /** Variance multiplier (1 − K/M) applied to t, cr1, cr2 and logit; 1 without M. */
  readonly fpc: number;
  /** Stratified: the lonely-PSU rule and the strata with one sampled document it treated. */
  readonly lonelyPsu?: LonelyPsuSummary;
}

export type MetricKind = "0/1" | "score in [0, 1]" | "score";

export interface Analysis {
  readonly level: number;
  readonly documents: number;
  readonly results: number;
  readonly binary: boolean;
  /**
   * "0/1" (every result 0 or 1: estimates are rates), "score in [0, 1]" (bounded: the logit
   * intervals apply), or "score" (unbounded, or a range not known from per-document sums).
   */
  readonly metricKind: MetricKind;
  /** Smallest and largest single result, when known (per-query input, or given min/max). */
  readonly observedRange: { readonly min: number | null; readonly max: number | null };
  readonly design: SrsDesignSummary;
  readonly micro: EstimandAnalysis | null;
  readonly macro: EstimandAnalysis | null;
  readonly diagnostics: Diagnostics;
  readonly advice: readonly Advice[];
}

function scaled(error: StandardError, factor: number): StandardError {
  return { se: error.se * Math.sqrt(factor), df: error.df };
}

export function validateLevel(level: number): number {
  if (!(level > 0 && level < 1)) {
    throw new RagciError(
      "invalid-option",
      `level ${level} must be strictly between 0 and 1 (e.g. 0.95)`,
    );
  }
  return level;
}

/**
 * Every document-level interval and diagnostic of SPEC §2–6 for one metric, from per-document
 * sums. Pure: the same stats and options always give the same Analysis.
 *
 * @throws RagciError for K < 2, M < K or a level outside (0, 1)
 * @example analyze(documentStats({ ids: ["a", "b", "c"], n: [2, 3, 5], s: [1, 3, 2] }))
 */
export function analyze(stats: DocumentStats, options: AnalyzeOptions = {}): Analysis {
  const level = validateLevel(options.level ?? 0.95);
  const k = requireTwoDocuments(stats);
  const population = options.population ?? null;
  const fpc = population === null ? 1 : finitePopulationCorrection(k, population);
  const estimands: Estimand[] = options.estimand ? [options.estimand] : ["micro", "macro"];
  const replicates = options.replicates ?? 9999;
  const seed = options.seed ?? 1;
  validateReplicates(replicates, seed);

  const results = compensatedSum(stats.n);
  const inUnit = stats.min !== null && stats.max !== null && stats.min >= 0 && stats.max <= 1;
  // With the range unknown (aggregated, non-binary), every r_d in [0, 1] is required at least.
  // Paired differences b − a are never proportions, even when every one happens to be ≥ 0.
  const metricInUnitInterval =
    !options.differences &&
    (stats.min === null || stats.max === null
      ? stats.s.every((s, d) => s >= 0 && s <= (stats.n[d] as number))
      : inUnit);

  const microCr2Raw = cr2(stats);
  const microCr2 = scaled(microCr2Raw, fpc);
  const microCr1Raw = cr1(stats);
  const macroTRaw = macroT(stats);
  const microCr1 = scaled(microCr1Raw, fpc);
  const macroSe = scaled(macroTRaw, fpc);
  const iid = waldIid(stats);
  const diagnostics = diagnose(stats, microCr2Raw, iid);
  const effectiveN: StandardError = {
    se: iid.se * Math.sqrt(diagnostics.designEffect.deff),
    df: null,
  };

  const micro = microEstimate(stats);
  const macro = macroEstimate(stats);
  const resampled = resamplingIntervals(stats, {
    micro,
    macro,
    microSe: microCr1Raw.se,
    macroSe: macroTRaw.se,
    level,
    replicates,
    seed,
    values: options.values ?? null,
    onProgress: options.onProgress,
    maxDraws: options.maxResamplingDraws ?? null,
    skippedReason: options.resamplingSkipped ?? null,
    spawnKeys: options.spawnKeys ?? { documents: [], chunks: [] },
    chunkSkipped:
      options.chunkBootstrapSkipped ??
      (options.chunkBootstrapMaxDraws != null &&
      (options.replicates ?? 9999) * stats.n.length > options.chunkBootstrapMaxDraws
        ? `skipped by default: B·K = ${((options.replicates ?? 9999) * stats.n.length).toExponential(1)} draws of a contrast (it ignores the documents) would cost more than every other interval; pass --chunk-bootstrap to run it`
        : null),
  });
  const microIntervals = {
    cr2: tInterval(micro, microCr2, level),
    cr1: tInterval(micro, microCr1, level),
    "wald-iid": tInterval(micro, iid, level),
    "wald-effective-n": tInterval(micro, effectiveN, level),
    logit: logitInterval(micro, microCr2, level, metricInUnitInterval),
    "logit-cv3": logitCv3Interval(stats, level, metricInUnitInterval, population),
    ...resampled.micro,
  };
  const microAnalysis: EstimandAnalysis = {
    estimand: "micro",
    question: estimandQuestion("micro", stats.binary),
    estimate: micro,
    recommended: recommendedMethod("micro", microIntervals),
    intervals: microIntervals,
  };
  const macroIntervals = {
    t: tInterval(macro, macroSe, level),
    "wald-iid": tInterval(macro, iid, level),
    "wald-effective-n": tInterval(macro, effectiveN, level),
    logit: logitInterval(macro, macroSe, level, metricInUnitInterval),
    ...resampled.macro,
  };
  const macroAnalysis: EstimandAnalysis = {
    estimand: "macro",
    question: estimandQuestion("macro", stats.binary),
    estimate: macro,
    recommended: recommendedMethod("macro", macroIntervals),
    intervals: macroIntervals,
  };

  const designed = options.design
    ? withDesign(microAnalysis, macroAnalysis, stats, options.design, level, metricInUnitInterval)
    : null;
  const chosen = designed ?? { micro: microAnalysis, macro: macroAnalysis };
  const outside = estimands.some((e) => {
    const interval = chosen[e].intervals[chosen[e].recommended];
    return (
      metricInUnitInterval && interval?.available && (interval.lower < 0 || interval.upper > 1)
    );
  });
  const designAdvice: Advice[] = options.design
    ? [
        {
          code: "design-declared",
          severity: "note",
          message:
            options.design.kind === "two-stage"
              ? `Two-stage design: the recommended interval uses the first- and second-stage variance with ν = m − 1, and the logit interval is built on it; the document bootstraps assume one simple sample and are not available; the contrasts treat the documents as one simple sample and are shown for comparison only.`
              : `Stratified design: the recommended interval is the design-based one with each stratum's fpc and ν = K − H, and the logit interval is built on it; the document bootstraps ignore the strata and are not available; the contrasts ignore the strata and are shown for comparison only.`,
        },
      ]
    : [];
  const advice = recommendMethod({
    documents: k,
    estimands,
    microDf: microCr2.df,
    seZero: microCr2Raw.se === 0 && macroSe.se === 0 && fpc > 0,
    metricInUnitInterval,
    intervalOutsideUnit: outside,
    census: fpc === 0,
    binary: stats.binary,
    logitAvailable: estimands.every((e) => chosen[e].intervals.logit?.available === true),
    boundedUnavailable: Object.fromEntries(
      estimands.flatMap((e) => {
        const bounded = chosen[e].intervals[e === "micro" ? "logit-cv3" : "logit"];
        return bounded && !bounded.available ? [[e, bounded.reason]] : [];
      }),
    ),
    design: options.design?.kind ?? "srs",
    designDf: designDegreesOfFreedom(designed),
    diagnostics,
  });

  return {
    level,
    documents: k,
    results,
    binary: stats.binary,
    metricKind: stats.binary ? "0/1" : metricInUnitInterval ? "score in [0, 1]" : "score",
    observedRange: stats.binary
      ? {
          min: stats.s.some((x, d) => x < (stats.n[d] as number)) ? 0 : 1,
          max: stats.s.some((x) => x > 0) ? 1 : 0,
        }
      : { min: stats.min, max: stats.max },
    design: {
      kind: options.design?.kind ?? "srs",
      ...(options.design ? { detail: designDetail(options.design) } : {}),
      unit: "document",
      population,
      samplingFraction: population === null ? null : k / population,
      fpc,
      ...(options.design?.kind === "stratified"
        ? {
            lonelyPsu: lonelyPsuSummary(
              options.design.strata,
              options.design.populationSizes,
              options.design.lonelyPsu ?? "fail",
            ),
          }
        : {}),
    },
    micro: estimands.includes("micro") ? chosen.micro : null,
    macro: estimands.includes("macro") ? chosen.macro : null,
    diagnostics,
    advice: [...designAdvice, ...advice],
  };
}

/** Adds the design-based interval and makes it the recommended one. */
/**
 * Puts the design's interval first and makes every other interval follow it: the logit
 * interval is rebuilt on the design's estimate, se and ν; the document bootstraps, which
 * resample one simple sample, are marked unavailable. Contrasts stay as SRS contrasts.
 */
function withDesign(
  micro: EstimandAnalysis,
  macro: EstimandAnalysis,
  stats: DocumentStats,
  design: DocumentDesign,
  level: number,
  metricInUnitInterval: boolean,
): Record<Estimand, EstimandAnalysis> {
  const notUnder = {
    available: false as const,
    reason: `resamples the documents as one simple random sample; not valid under the ${design.kind} design`,
  };
  const result =
    design.kind === "stratified"
      ? stratifiedEstimates(stats, design, level)
      : twoStageEstimates(stats, design, level);
  const add = (e: EstimandAnalysis, d: DesignInterval): EstimandAnalysis => ({
    ...e,
    estimate: d.estimate,
    recommended: design.kind,
    intervals: {
      [design.kind]: {
        available: true,
        lower: d.lower,
        upper: d.upper,
        se: d.se,
        df: d.df,
        q: criticalValue(level, d.df),
      },
      ...e.intervals,
      logit: logitInterval(d.estimate, { se: d.se, df: d.df }, level, metricInUnitInterval),
      ...("bootstrap-t" in e.intervals
        ? { "bootstrap-t": notUnder, "bootstrap-percentile": notUnder }
        : {}),
      ...("logit-cv3" in e.intervals
        ? {
            "logit-cv3": {
              available: false as const,
              reason: `the leave-one-document-out variance of one simple random sample; not valid under the ${design.kind} design`,
            },
          }
        : {}),
    },
  });
  return { micro: add(micro, result.micro), macro: add(macro, result.macro) };
}

/** ν of the design's interval (the same for micro and macro), or null under SRS. */
function designDegreesOfFreedom(
  designed: Record<Estimand, EstimandAnalysis> | null,
): number | null {
  const interval = designed?.micro.intervals[designed.micro.recommended];
  return interval?.available ? interval.df : null;
}

function designDetail(design: DocumentDesign): Record<string, unknown> {
  const count = (labels: readonly string[]) =>
    Object.fromEntries([...groupIndices(labels)].map(([label, at]) => [label, at.length]));
  if (design.kind === "stratified") {
    const sampled = count(design.strata);
    return {
      strata: Object.fromEntries(
        Object.entries(sampled).map(([h, k]) => [
          h,
          { sampled: k, population: design.populationSizes[h] },
        ]),
      ),
    };
  }
  const sampled = count(design.units);
  return {
    firstStagePopulation: design.firstStagePopulation,
    units: Object.fromEntries(
      Object.entries(sampled).map(([u, k]) => [
        u,
        { sampled: k, population: design.secondStagePopulation[u] },
      ]),
    ),
  };
}

interface ResamplingInput {
  readonly micro: number;
  readonly macro: number;
  /** Original (no fpc) standard errors that studentise the bootstrap-t: CR1 and sd/√K. */
  readonly microSe: number;
  readonly macroSe: number;
  readonly level: number;
  readonly replicates: number;
  readonly seed: number;
  readonly values: ResultValues | null;
  readonly onProgress: ((phase: ResamplingPhase, fraction: number) => void) | undefined;
  readonly maxDraws: number | null;
  readonly skippedReason: string | null;
  readonly spawnKeys: { readonly documents: readonly number[]; readonly chunks: readonly number[] };
  readonly chunkSkipped: string | null;
}

type ResamplingMethod = "bootstrap-t" | "bootstrap-percentile" | "chunk-bootstrap";

/** The three resampling intervals for micro and macro (SPEC §3); with-replacement, so no fpc. */
function resamplingIntervals(
  stats: DocumentStats,
  input: ResamplingInput,
): Record<Estimand, Partial<Record<ResamplingMethod, Interval>>> {
  const { level, replicates, seed, onProgress } = input;
  const chunkProgress = onProgress ? (f: number) => onProgress("chunk bootstrap", f) : undefined;
  const draws = replicates * stats.n.length;
  if (replicates === 0 || (input.maxDraws !== null && draws > input.maxDraws)) {
    const reason =
      replicates === 0
        ? (input.skippedReason ?? "resampling turned off (B = 0)")
        : `skipped by default: B·K = ${draws.toExponential(1)} document draws would take minutes; with K = ${stats.n.length} the t and cr2 intervals are the ones to use — pass --replicates B to run it anyway`;
    const off: Interval = { available: false, reason };
    const all = { "bootstrap-t": off, "bootstrap-percentile": off, "chunk-bootstrap": off };
    return { micro: all, macro: all };
  }
  const documents = documentBootstrap(stats, input.macro, input.micro, {
    replicates,
    seed,
    spawnKey: input.spawnKeys.documents,
    ...(onProgress ? { onProgress: (f: number) => onProgress("document bootstrap", f) } : {}),
  });
  const degenerate = documents.degenerateCount / replicates;
  const total = stats.n.reduce((a, b) => a + b, 0);
  let chunks: ChunkBootstrapReplicates | string;
  const chunkKey = input.spawnKeys.chunks;
  if (input.chunkSkipped !== null) chunks = input.chunkSkipped;
  else if (stats.binary)
    chunks = chunkBootstrapBinary(stats, replicates, seed, chunkProgress, chunkKey);
  else if (input.values === null) {
    chunks =
      "non-binary metric from per-document input: resampling results needs the per-query values";
  } else if (total * replicates > CHUNK_BOOTSTRAP_ROW_LIMIT) {
    chunks = `N × B = ${total * replicates} is too many draws for the row-level chunk bootstrap of a non-binary metric (a contrast); lower --replicates`;
  } else chunks = chunkBootstrapRows(input.values, replicates, seed, chunkProgress, chunkKey);
  const chunkInterval = (estimates: "micro" | "macro"): Interval =>
    typeof chunks === "string"
      ? { available: false, reason: chunks }
      : bootstrapPercentile(chunks[estimates], level, { seed, degenerate: 0 });
  return {
    micro: {
      "bootstrap-t": bootstrapT(
        input.micro,
        input.microSe,
        documents.microT,
        documents.degenerate,
        level,
        seed,
      ),
      "bootstrap-percentile": bootstrapPercentile(documents.micro, level, { seed, degenerate }),
      "chunk-bootstrap": chunkInterval("micro"),
    },
    macro: {
      "bootstrap-t": bootstrapT(
        input.macro,
        input.macroSe,
        documents.macroT,
        documents.degenerate,
        level,
        seed,
      ),
      "bootstrap-percentile": bootstrapPercentile(documents.macro, level, { seed, degenerate }),
      "chunk-bootstrap": chunkInterval("macro"),
    },
  };
}
