import type { Comparison } from "../core/compare.js";
import type { ComparisonReport, MetricComparisons } from "./comparisonReport.js";
import { facetComponentsJson } from "./facetComponents.js";
import { analysisJson } from "./json.js";
import { verdict } from "./verdict.js";

/** One pair (A, B): the SPEC §10 comparison at the top level (or per metric). */
export const COMPARISON_SCHEMA = "ragci.comparison/1";
/** Several pairs (--baseline, --all-pairs): `comparisons[]` with Holm p-values and groups. */
export const COMPARISONS_SCHEMA = "ragci.comparisons/1";

function comparisonJson(
  c: Comparison,
  metric: string,
  holm?: Partial<Record<"micro" | "macro", number>>,
) {
  const entry = (system: string | null, analysis: Comparison["difference"]) => ({
    ...analysisJson({ metric, system, analysis, aggregatesSha256: "" }),
    aggregatesSha256: undefined,
  });
  return {
    a: entry(c.a, c.aAnalysis),
    b: entry(c.b, c.bAnalysis),
    difference: { of: `${c.b} - ${c.a}`, ...entry(null, c.difference) },
    ties: c.ties,
    queriesDiffering: c.queriesDiffering,
    tests: c.tests,
    ...(c.censusStudy ? { censusStudy: c.censusStudy } : {}),
    ...(holm ? { pHolm: holm } : {}),
    verdict: Object.fromEntries(
      (["micro", "macro"] as const)
        .filter((e) => c.tests[e])
        .map((e) => [e, verdict(c, e, c.difference.level)]),
    ),
  };
}

function metricJson(m: MetricComparisons, many: boolean) {
  if (!many) return comparisonJson(m.comparisons[0] as Comparison, m.metric);
  return {
    comparisons: m.comparisons.map((c, i) => comparisonJson(c, m.metric, m.holm[i])),
    groups: m.groups,
  };
}

/**
 * SPEC §10 for comparisons: the analysis structure under `difference`, with `a`, `b` and
 * `ties`. Several metrics: `metrics: { name: … }`; several systems: `comparisons: […]`.
 */
export function comparisonReportJson(report: ComparisonReport): Record<string, unknown> {
  const many = report.mode !== "two";
  const head = {
    schema: many ? COMPARISONS_SCHEMA : COMPARISON_SCHEMA,
    ragci: report.version,
    level: report.metrics[0]?.comparisons[0]?.difference.level ?? 0.95,
    inputs: report.inputs,
    systems: report.systems,
    mode: report.mode,
    queries: report.queries,
    dropped: report.dropped,
    summation: report.summation,
    notices: report.notices,
    aggregatesFile: report.aggregatesFile,
    ...(report.facets ? comparedComponentsJson(report) : {}),
  };
  if (report.metrics.length === 1)
    return {
      ...head,
      metric: report.metrics[0]?.metric,
      ...metricJson(report.metrics[0] as MetricComparisons, many),
    };
  return {
    ...head,
    metrics: Object.fromEntries(report.metrics.map((m) => [m.metric, metricJson(m, many)])),
  };
}

/**
 * `varianceComponents` (and `varianceFit`) of each compared system: by system for one metric,
 * by metric then system for several (facetComponents.ts gives each system's keys).
 */
function comparedComponentsJson(report: ComparisonReport): Record<string, unknown> {
  const facets = report.facets ?? [];
  const part = (key: "varianceComponents" | "varianceFit", metric: string) =>
    Object.fromEntries(
      facets
        .filter((f) => f.metric === metric)
        .map((f) => [f.system, facetComponentsJson(f.components)[key]]),
    );
  const byMetric = (key: "varianceComponents" | "varianceFit") =>
    report.metrics.length === 1
      ? part(key, report.metrics[0]?.metric as string)
      : Object.fromEntries(report.metrics.map((m) => [m.metric, part(key, m.metric)]));
  return {
    varianceComponents: byMetric("varianceComponents"),
    varianceFit: byMetric("varianceFit"),
  };
}

export function formatComparisonJson(report: ComparisonReport): string {
  return `${JSON.stringify(comparisonReportJson(report), (_, v) => v, 2)}\n`;
}
