import type { Analysis, EstimandAnalysis } from "../core/analyze.js";
import type { Interval } from "../core/types.js";
import type { AnalysisEntry, AnalysisReport } from "./analysisReport.js";
import { facetComponentsJson } from "./facetComponents.js";

/** Schema id of the analysis JSON (SPEC §10). Key names below are frozen: add, never rename. */
export const ANALYSIS_SCHEMA = "ragci.analysis/1";

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
  return { estimate: e.estimate, question: e.question, recommended: e.recommended, intervals };
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

/** One analysis in the SPEC §10 shape (the object that sits at the top level for one metric). */
export function analysisJson(entry: AnalysisEntry): Record<string, unknown> {
  const a = entry.analysis;
  return {
    metric: entry.metric,
    system: entry.system,
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
 * The whole report. One metric of one system: the analysis at the top level. Several metrics:
 * `metrics: { name: analysis }`. Several systems: `systems: { name: <one or several metrics> }`.
 */
export function reportJson(report: AnalysisReport): Record<string, unknown> {
  const level = report.entries[0]?.analysis.level ?? 0.95;
  const head = {
    schema: ANALYSIS_SCHEMA,
    ragci: report.version,
    command: report.command,
    level,
    inputs: report.inputs,
    aggregatesFile: report.aggregatesFile,
    summation: report.summation,
    inputWarnings: report.notices,
  };
  const bySystem = new Map<string | null, AnalysisEntry[]>();
  for (const entry of report.entries)
    bySystem.set(entry.system, [...(bySystem.get(entry.system) ?? []), entry]);
  const metricsBlock = (entries: AnalysisEntry[]) =>
    entries.length === 1
      ? analysisJson(entries[0] as AnalysisEntry)
      : { metrics: Object.fromEntries(entries.map((e) => [e.metric, analysisJson(e)])) };
  if (bySystem.size === 1 && bySystem.has(null))
    return { ...head, ...metricsBlock(bySystem.get(null) ?? []) };
  return {
    ...head,
    systems: Object.fromEntries(
      [...bySystem].map(([system, entries]) => [system ?? "", metricsBlock(entries)]),
    ),
  };
}

/** Serialised JSON (2-space indent, trailing newline). */
export function formatReportJson(report: AnalysisReport): string {
  return `${JSON.stringify(reportJson(report), null, 2)}\n`;
}
