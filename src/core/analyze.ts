import {
  type AnalyzeRunOptions,
  analyzeIntervals,
  type EstimandAnalysis,
  type MetricKind,
} from "./analyzeIntervals.js";
import {
  type DesignDetail,
  designDeclaredAdvice,
  designDegreesOfFreedom,
  designDetail,
} from "./designs/applyDesign.js";
import { type LonelyPsuSummary, lonelyPsuSummary } from "./designs/lonelyPsu.js";
import { type Diagnostics, diagnose } from "./diagnostics/diagnose.js";
import { differingDocuments } from "./diagnostics/differingDocuments.js";
import { compensatedSum } from "./numeric/compensatedSum.js";
import { withheldRecommendations } from "./recommendationWithheld.js";
import { type Advice, recommendMethod } from "./recommendMethod.js";
import type { DocumentStats, Estimand } from "./types.js";

export {
  type AnalyzeOptions,
  type AnalyzeRunOptions,
  type EstimandAnalysis,
  type MetricKind,
  metricKindOf,
} from "./analyzeIntervals.js";

/** The sampling design the intervals assume: SRS of documents, stratified, or two-stage. */
export interface DesignSummary {
  readonly kind: "srs" | "stratified" | "two-stage";
  /** Stratified: documents sampled per stratum and M_h; two-stage: units sampled of T. */
  readonly detail?: DesignDetail;
  readonly unit: "document";
  readonly population: number | null;
  readonly samplingFraction: number | null;
  /** Variance multiplier (1 − K/M) applied to t, cr1, cr2 and logit; 1 without M. */
  readonly fpc: number;
  /** Stratified: the lonely-PSU rule and the strata with one sampled document it treated. */
  readonly lonelyPsu?: LonelyPsuSummary;
}

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
  readonly design: DesignSummary;
  readonly micro: EstimandAnalysis | null;
  readonly macro: EstimandAnalysis | null;
  readonly diagnostics: Diagnostics;
  readonly advice: readonly Advice[];
}

/**
 * Every document-level interval and diagnostic of SPEC §2–6 for one metric, from per-document
 * sums. Pure: the same stats and options always give the same Analysis.
 *
 * @throws RagciError for K < 2, M < K or a level outside (0, 1)
 * @example analyze(documentStats({ ids: ["a", "b", "c"], n: [2, 3, 5], s: [1, 3, 2] }), { replicates: 0 }).micro?.estimate
 *   // => 0.6
 */
export function analyze(stats: DocumentStats, options: AnalyzeRunOptions = {}): Analysis {
  const intervals = analyzeIntervals(stats, options);
  const { level, fpc, kind, metricInUnitInterval, population, microCr2Raw, microCr2, macroSe } =
    intervals;
  const k = intervals.documents;
  const estimands: Estimand[] = options.estimand ? [options.estimand] : ["micro", "macro"];
  const results = compensatedSum(stats.n);
  const diagnostics = diagnose(stats, {
    microCr2: microCr2Raw,
    microWaldIid: intervals.iid,
    icc: intervals.icc,
    designEffect: intervals.designEffect,
  });

  const outside = estimands.some((e) => {
    const interval = intervals[e].intervals[intervals[e].recommended];
    return (
      metricInUnitInterval && interval?.available && (interval.lower < 0 || interval.upper > 1)
    );
  });
  const designAdvice: Advice[] = options.design ? [designDeclaredAdvice(options.design)] : [];
  const seZero = microCr2Raw.se === 0 && macroSe.se === 0 && fpc > 0;
  const differing = kind === "difference" ? differingDocuments(stats) : undefined;
  const withheld = withheldRecommendations({
    estimands,
    srsSample: !options.design && fpc > 0,
    ...(differing === undefined ? {} : { differingDocuments: differing }),
  });
  const withWithheld = (e: Estimand): EstimandAnalysis => {
    const why = withheld[e];
    return why === undefined ? intervals[e] : { ...intervals[e], recommendationWithheld: why };
  };
  const advice = recommendMethod({
    documents: k,
    estimands,
    microDf: microCr2.df,
    seZero,
    metricInUnitInterval,
    intervalOutsideUnit: outside,
    census: fpc === 0,
    binary: stats.binary,
    logitAvailable: estimands.every((e) => intervals[e].intervals.logit?.available === true),
    boundedUnavailable: Object.fromEntries(
      estimands.flatMap((e) => {
        const bounded = intervals[e].intervals[e === "micro" ? "logit-cv3" : "logit"];
        return bounded && !bounded.available ? [[e, bounded.reason]] : [];
      }),
    ),
    design: options.design?.kind ?? "srs",
    // the design's micro ν (intervals are the design's when one is declared)
    designDf: designDegreesOfFreedom(options.design ? intervals : null),
    diagnostics,
    ...(differing === undefined ? {} : { differences: { differingDocuments: differing } }),
    withheld,
    level,
  });

  return {
    level,
    documents: k,
    results,
    binary: stats.binary,
    // A difference that happens to be 0/1 on every query is still labelled by its values.
    metricKind: kind !== "difference" ? kind : stats.binary ? "0/1" : "score",
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
    micro: estimands.includes("micro") ? withWithheld("micro") : null,
    macro: estimands.includes("macro") ? withWithheld("macro") : null,
    diagnostics,
    advice: [...designAdvice, ...advice],
  };
}
