import type { Analysis, EstimandAnalysis } from "../core/analyze.js";
import type { Interval } from "../core/types.js";
import type { AnalysisEntry, AnalysisReport } from "./analysisReport.js";
import { facetComponentsJson } from "./facetComponents.js";
import { jsonText } from "./jsonText.js";

/**
 * The `schema` of `ragci analyze --json`: the package path of its JSON Schema
 * (`import.meta.resolve(report.schema)` finds the file). Key names are frozen: add, never rename.
 */
export const ANALYSIS_SCHEMA = "ragci/schemas/analyze.v2.json";

/** SPEC §10: lower, upper, se, df (null where none); bootstraps add replicates and degenerate. */
function intervalJson(interval: Interval): Record<string, unknown> {
  const resampling = interval.resampling ? { ...interval.resampling } : {};
  if (!interval.available) {
    return {
      available: false,
      reason: interval.reason,
      lower: null,
      upper: null,
      se: null,
      df: null,
      ...resampling,
    };
  }
  const { lower, upper, se, df, q } = interval;
  const logitScale = interval.seLogit === undefined ? {} : { seLogit: interval.seLogit };
  return { available: true, lower, upper, se, ...logitScale, df, q, ...resampling };
}

function estimandJson(e: EstimandAnalysis | null): Record<string, unknown> | null {
  if (e === null) return null;
  const intervals: Record<string, unknown> = {};
  for (const [method, interval] of Object.entries(e.intervals)) {
    if (interval) intervals[method] = intervalJson(interval);
  }
  return {
    estimate: e.estimate,
    question: e.question,
    recommended: e.recommended,
    // Only when set, so that the JSON of every other analysis is unchanged.
    ...(e.recommendationWithheld ? { recommendationWithheld: e.recommendationWithheld } : {}),
    intervals,
  };
}

function diagnosticsJson(a: Analysis): Record<string, unknown> {
  const d = a.diagnostics;
  const [min, q1, median, q3, max] = d.sizes.quantiles;
  const [rmin, rq1, rmedian, rq3, rmax] = d.rates.quantiles;
  return {
    sizes: {
      min,
      q1,
      median,
      q3,
      max,
      mean: d.sizes.mean,
      shareLargestDocument: d.sizes.shareLargestDocument,
      largestDocument: d.sizes.largestDocument,
      shareLargestDecile: d.sizes.shareLargestDecile,
      largestDecileDocuments: d.sizes.largestDecileDocuments,
      equal: d.sizes.equalSizes,
    },
    rates: {
      min: rmin,
      q1: rq1,
      median: rmedian,
      q3: rq3,
      max: rmax,
      fractionZero: d.rates.fractionZero,
      fractionOne: d.rates.fractionOne,
      allEqual: d.rates.allEqual,
    },
    icc: d.icc.available
      ? { available: true, value: d.icc.icc, msb: d.icc.msb, msw: d.icc.msw, n0: d.icc.n0 }
      : { available: false, reason: d.icc.reason, value: null },
    deff: d.designEffect.deff,
    effectiveN: d.designEffect.effectiveN,
    varianceRatio: d.varianceRatio,
    influence: d.influence,
  };
}

/** One analysis: one system's (null: no --system) intervals and diagnostics for one metric. */
export function analysisJson(entry: AnalysisEntry): Record<string, unknown> {
  const a = entry.analysis;
  return {
    system: entry.system,
    metric: entry.metric,
    binary: a.binary,
    metricKind: a.metricKind,
    observedRange: a.observedRange,
    documents: a.documents,
    results: a.results,
    design: a.design,
    micro: estimandJson(a.micro),
    macro: estimandJson(a.macro),
    diagnostics: diagnosticsJson(a),
    advice: a.advice,
    aggregatesSha256: entry.aggregatesSha256,
    ...(entry.censusStudy
      ? { censusStudy: { file: entry.censusStudy.file, ...entry.censusStudy.study } }
      : {}),
    ...(entry.facets ? facetComponentsJson(entry.facets) : {}),
  };
}

/**
 * The whole report, one shape for any number of systems and metrics: `analyses` holds one
 * analysis per system × metric, in the report's order, each naming its system and metric.
 *
 * @example // one analysis of the four documents of the cr2 example
 *   analysisReportJson({ command: "ragci analyze", version: "0.1.0", inputs: [], entries: [{ metric: "hit", system: null, analysis: analyze(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { replicates: 0 }), aggregatesSha256: "" }], aggregatesFile: null, summation: "exact", notices: [] }).analyses[0].micro
 *   // => { estimate: 0.5000, recommended: "logit-cv3", intervals: { cr2: { se: 0.15407, df: 2.6661 } } }
 */
export function analysisReportJson(report: AnalysisReport): Record<string, unknown> {
  return {
    schema: ANALYSIS_SCHEMA,
    command: report.command,
    ragci: report.version,
    level: report.entries[0]?.analysis.level ?? 0.95,
    inputs: report.inputs,
    aggregatesFile: report.aggregatesFile,
    summation: report.summation,
    notes: report.notices,
    analyses: report.entries.map(analysisJson),
  };
}

/** Serialised JSON (2-space indent, trailing newline). */
export function formatReportJson(report: AnalysisReport): string {
  return jsonText(analysisReportJson(report));
}
