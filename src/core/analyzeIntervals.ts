import { checkReplicates, checkSeed } from "./bootstrap/replicateLimit.js";
import { type DocumentDesign, withDesign } from "./designs/applyDesign.js";
import { type IntraclassCorrelation, icc } from "./diagnostics/icc.js";
import { type DesignEffect, kishDeff } from "./diagnostics/kishDeff.js";
import type { EstimandAnalysis } from "./estimandAnalysis.js";
import { macroEstimate } from "./estimands/macroEstimate.js";
import { microEstimate } from "./estimands/microEstimate.js";
import { differingTInterval } from "./intervals/differingTInterval.js";
import { validateLevel } from "./intervals/level.js";
import { logitCv3Interval } from "./intervals/logitCv3Interval.js";
import { logitInterval } from "./intervals/logitInterval.js";
import { tInterval } from "./intervals/tInterval.js";
import { estimandQuestion, recommendedMethod } from "./methods.js";
import {
  chunkBootstrapOverBudget,
  type ResamplingPhase,
  resamplingIntervals,
} from "./resamplingIntervals.js";
import type { DocumentStats, Estimand, ResultValues, StandardError } from "./types.js";
import { cr1 } from "./variance/cr1.js";
import { cr2 } from "./variance/cr2.js";
import { finitePopulationCorrection } from "./variance/finitePopulationCorrection.js";
import { macroT } from "./variance/macroT.js";
import { requireTwoDocuments } from "./variance/requireTwoDocuments.js";
import { waldIid } from "./variance/waldIid.js";

/** The options of an analysis a caller chooses (the library's `analyze`, the CLI's flags). */
export interface AnalyzeOptions {
  /** Confidence level, default 0.95. */
  readonly level?: number;
  /** M, the number of documents in the population (SRS without replacement); null: infinite. */
  readonly population?: number | null;
  /** Restrict the report to one estimand; default both. */
  readonly estimand?: Estimand | null;
  /** B bootstrap replicates (default 9999); 0 skips the resampling methods. */
  readonly replicates?: number;
  /** Seed of the numpy-compatible stream (default 1). */
  readonly seed?: number;
  /** Stratified or two-stage design; its interval becomes the recommended one. */
  readonly design?: DocumentDesign | null;
  /**
   * The stats are per-document sums of paired differences b − a: no logit intervals (a
   * difference is not a proportion); micro cr2 and macro t with ν = D − 1 (t-differing) are
   * recommended, as the paired studies found.
   */
  readonly differences?: boolean;
  /** Per-query values for the chunk bootstrap of a non-binary metric (not needed for 0/1). */
  readonly values?: ResultValues | null;
  /** Which resampling runs and the fraction of it done, for a progress bar. */
  readonly onProgress?: (phase: ResamplingPhase, fraction: number) => void;
  /**
   * Skip the resampling methods (reported unavailable, with the reason) when B·K exceeds this
   * many document draws; default no limit. The CLI sets it only when B was not asked for.
   */
  readonly maxResamplingDraws?: number | null;
  /**
   * Skip the chunk bootstrap (a contrast) when B·K exceeds this many document draws: its 2K
   * binomial draws per replicate then cost more than every interval that is used. null: no limit.
   */
  readonly chunkBootstrapMaxDraws?: number | null;
}

/**
 * What ragci's own callers add to an analysis (compareSystems, the coverage study): the reasons
 * shown when they skip a method, and the study's streams. Not part of the library surface.
 */
export interface AnalyzeRunOptions extends AnalyzeOptions {
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
}

export function validateReplicates(replicates: number, seed: number): void {
  checkReplicates(replicates);
  checkSeed(seed);
}

export type { EstimandAnalysis } from "./estimandAnalysis.js";

export type MetricKind = "0/1" | "score in [0, 1]" | "score";

/**
 * What the results are: paired differences b − a (never proportions, even when all ≥ 0), 0/1,
 * bounded in [0, 1] (the logit intervals apply), or unbounded. With the range unknown
 * (aggregated, non-binary), every r_d in [0, 1] is required at least.
 */
export function metricKindOf(
  stats: DocumentStats,
  differences: boolean,
): MetricKind | "difference" {
  if (differences) return "difference";
  if (stats.binary) return "0/1";
  const inUnit =
    stats.min === null || stats.max === null
      ? stats.s.every((s, d) => s >= 0 && s <= (stats.n[d] as number))
      : stats.min >= 0 && stats.max <= 1;
  return inUnit ? "score in [0, 1]" : "score";
}

function scaled(error: StandardError, factor: number): StandardError {
  return { se: error.se * Math.sqrt(factor), df: error.df };
}

/**
 * Every interval of SPEC §3 (and the declared design's) for micro and macro, without the
 * diagnostics' distributions and influence or the advice: what `analyze` reports as intervals,
 * computed by this one function, and what a coverage study scores on each repetition.
 *
 * @throws RagciError for K < 2, M < K or a level outside (0, 1)
 */
export function analyzeIntervals(
  stats: DocumentStats,
  options: AnalyzeRunOptions = {},
): AnalyzedIntervals {
  const level = validateLevel(options.level ?? 0.95);
  const k = requireTwoDocuments(stats);
  const population = options.population ?? null;
  const fpc = population === null ? 1 : finitePopulationCorrection(k, population);
  const replicates = options.replicates ?? 9999;
  const seed = options.seed ?? 1;
  validateReplicates(replicates, seed);

  const kind = metricKindOf(stats, options.differences ?? false);
  const metricInUnitInterval = kind !== "score" && kind !== "difference";

  const microCr2Raw = cr2(stats);
  const microCr2 = scaled(microCr2Raw, fpc);
  const microCr1Raw = cr1(stats);
  const macroTRaw = macroT(stats);
  const microCr1 = scaled(microCr1Raw, fpc);
  const macroSe = scaled(macroTRaw, fpc);
  const iid = waldIid(stats);
  const correlation = icc(stats);
  // Where the ICC is undefined (every n_d = 1, or no variation at all) DEFF does not depend on it.
  const designEffect = kishDeff(stats, correlation.available ? correlation.icc : 0);
  const effectiveN: StandardError = {
    se: iid.se * Math.sqrt(designEffect.deff),
    df: null,
  };

  const micro = microEstimate(stats);
  const macro = macroEstimate(stats);
  const resampled = resamplingIntervals(stats, {
    micro,
    macro,
    microSe: microCr1Raw.se,
    macroSe: macroTRaw.se,
    fpc,
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
      chunkBootstrapOverBudget(replicates * stats.n.length, options.chunkBootstrapMaxDraws ?? null),
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
    recommended: recommendedMethod("micro", microIntervals, kind === "difference"),
    intervals: microIntervals,
  };
  const macroIntervals = {
    t: tInterval(macro, macroSe, level),
    "wald-iid": tInterval(macro, iid, level),
    "wald-effective-n": tInterval(macro, effectiveN, level),
    logit: logitInterval(macro, macroSe, level, metricInUnitInterval),
    // Paired differences only: their tied documents' exact zeros do not inform the spread.
    ...(kind === "difference" ? { "t-differing": differingTInterval(stats, level, fpc) } : {}),
    ...resampled.macro,
  };
  const macroAnalysis: EstimandAnalysis = {
    estimand: "macro",
    question: estimandQuestion("macro", stats.binary),
    estimate: macro,
    recommended: recommendedMethod("macro", macroIntervals, kind === "difference"),
    intervals: macroIntervals,
  };
  const designed = options.design
    ? withDesign({ micro: microAnalysis, macro: macroAnalysis }, stats, {
        design: options.design,
        level,
        metricInUnitInterval,
      })
    : null;
  return {
    level,
    documents: k,
    population,
    fpc,
    kind,
    metricInUnitInterval,
    microCr2Raw,
    microCr2,
    macroSe,
    iid,
    icc: correlation,
    designEffect,
    micro: designed?.micro ?? microAnalysis,
    macro: designed?.macro ?? macroAnalysis,
  };
}

/** What analyzeIntervals computes: both estimands' intervals and what the report builds on. */
export interface AnalyzedIntervals {
  readonly level: number;
  readonly documents: number;
  readonly population: number | null;
  readonly fpc: number;
  readonly kind: MetricKind | "difference";
  readonly metricInUnitInterval: boolean;
  /** CR2 of the micro estimate without and with the fpc; macro t's se with the fpc. */
  readonly microCr2Raw: StandardError;
  readonly microCr2: StandardError;
  readonly macroSe: StandardError;
  readonly iid: StandardError;
  readonly icc: IntraclassCorrelation;
  readonly designEffect: DesignEffect;
  /** The analyses reported: the declared design's where there is one. */
  readonly micro: EstimandAnalysis;
  readonly macro: EstimandAnalysis;
}
