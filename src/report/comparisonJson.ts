import type { Comparison } from "../core/compare.js";
import type { Estimand } from "../core/types.js";
import type { ComparisonReport, MetricComparisons } from "./comparisonReport.js";
import { facetComponentsJson } from "./facetComponents.js";
import { gateJson } from "./gateJson.js";
import { analysisJson } from "./json.js";
import { jsonText } from "./jsonText.js";
import { verdict } from "./verdict.js";

/**
 * The `schema` of `ragci compare --json`, for two systems, --baseline and --all-pairs alike:
 * the package path of its JSON Schema. Key names are frozen: add, never rename.
 */
export const COMPARISON_SCHEMA = "ragci/schemas/compare.v2.json";

/** One system's (or the difference's) analysis, without the digest of per-document sums. */
function sideJson(system: string | null, metric: string, analysis: Comparison["difference"]) {
  const { aggregatesSha256: _, ...side } = analysisJson({
    metric,
    system,
    analysis,
    aggregatesSha256: "",
  });
  return side;
}

/** One pair b − a on one metric; pHolm is null when the pair is the only one (no family). */
function comparisonJson(
  c: Comparison,
  metric: string,
  holm: Readonly<Partial<Record<Estimand, number>>> | null,
) {
  return {
    metric,
    a: sideJson(c.a, metric, c.aAnalysis),
    b: sideJson(c.b, metric, c.bAnalysis),
    difference: { of: `${c.b} - ${c.a}`, ...sideJson(null, metric, c.difference) },
    ties: c.ties,
    queriesDiffering: c.queriesDiffering,
    tests: c.tests,
    pHolm: holm,
    verdict: Object.fromEntries(
      (["micro", "macro"] as const)
        .filter((e) => c.tests[e])
        .map((e) => [e, verdict(c, e, c.difference.level)]),
    ),
    ...(c.censusStudy ? { censusStudy: c.censusStudy } : {}),
  };
}

/**
 * compare's JSON, one shape for any number of systems and metrics: `comparisons` holds every
 * pair of every metric (each naming its metric, with the analyses of a, b and b − a), `groups`
 * each metric's tie groups (--all-pairs; empty otherwise) and `gate` the regression gate's
 * decision (null without --fail-if-worse or --require-noninferior).
 */
export function comparisonReportJson(report: ComparisonReport): Record<string, unknown> {
  const family = report.mode !== "two";
  return {
    schema: COMPARISON_SCHEMA,
    command: "ragci compare",
    ragci: report.version,
    level: report.metrics[0]?.comparisons[0]?.difference.level ?? 0.95,
    inputs: report.inputs,
    systems: report.systems,
    mode: report.mode,
    queries: report.queries,
    dropped: report.dropped,
    summation: report.summation,
    aggregatesFile: report.aggregatesFile,
    notes: report.notices,
    comparisons: report.metrics.flatMap((m: MetricComparisons) =>
      m.comparisons.map((c, i) => comparisonJson(c, m.metric, family ? (m.holm[i] ?? {}) : null)),
    ),
    groups: report.metrics.map((m) => ({ metric: m.metric, ...m.groups })),
    gate: report.gate ? gateJson(report.gate) : null,
    ...(report.facets ? comparedComponentsJson(report) : {}),
  };
}

/**
 * `varianceComponents` (and `facets`) of each compared system, by metric then system
 * (facetComponents.ts gives each system's keys).
 */
function comparedComponentsJson(report: ComparisonReport): Record<string, unknown> {
  const facets = report.facets ?? [];
  const part = (key: "varianceComponents" | "facets", metric: string) =>
    Object.fromEntries(
      facets
        .filter((f) => f.metric === metric)
        .map((f) => [f.system, facetComponentsJson(f.components)[key]]),
    );
  const byMetric = (key: "varianceComponents" | "facets") =>
    Object.fromEntries(report.metrics.map((m) => [m.metric, part(key, m.metric)]));
  return {
    varianceComponents: byMetric("varianceComponents"),
    facets: byMetric("facets"),
  };
}

export function formatComparisonJson(report: ComparisonReport): string {
  return jsonText(comparisonReportJson(report));
}
