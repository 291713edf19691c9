import type { DesignSummary } from "../core/analyze.js";
import type { Comparison } from "../core/compare.js";
import { FEWEST_DIFFERING_DOCUMENTS } from "../core/diagnostics/differingDocuments.js";
import { PAIRED_STUDIES, PAIRED_STUDY_COVERAGE } from "../core/pairedStudyCoverage.js";
import type { Interval } from "../core/types.js";
import { comparisonOverviewRows, differenceDecimals } from "./comparisonOverview.js";
import type { ComparisonReport, MetricComparisons } from "./comparisonReport.js";
import { facetComponentsLines, facetHeaderLines } from "./facetComponents.js";
import {
  alignColumns,
  ansiStyle,
  count,
  degreesOfFreedom,
  fixed,
  levelPercent,
  percent,
  pValue,
  significant,
} from "./format.js";
import { gateBlocks } from "./gateReport.js";
import { lonelyPsuWarnings } from "./lonelyPsuWarnings.js";
import { blocksToTerminal } from "./reportBlocks.js";
import { summationNote } from "./summationNote.js";
import { systemsRecommended } from "./systemsRecommended.js";
import { designLine } from "./terminal.js";
import { inPoints, verdict } from "./verdict.js";

const bold = (on: boolean) => ansiStyle(on).bold;
const dim = (on: boolean) => ansiStyle(on).dim;

function bounds(interval: Interval | undefined, decimals: number): string {
  if (!interval) return "";
  return interval.available
    ? `[${fixed(interval.lower, decimals)}, ${fixed(interval.upper, decimals)}]`
    : "unavailable";
}

/** Why the document bootstraps are not used for a difference, with ragci's paired studies. */
export const PAIRED_CAVEAT = `paired differences are small, discrete and full of ties: at K = 20 micro cr2 covered ${percent(PAIRED_STUDY_COVERAGE["k20-lowest/micro/cr2"], 1)}–${percent(PAIRED_STUDY_COVERAGE["k20-highest/micro/cr2"], 1)} of 95% and macro t-differing (ν = D − 1) ${percent(PAIRED_STUDY_COVERAGE["k20-lowest/macro/t-differing"], 1)}–${percent(PAIRED_STUDY_COVERAGE["k20-highest/macro/t-differing"], 1)}, while macro t with ν = K − 1 fell to ${percent(PAIRED_STUDY_COVERAGE["k20-lowest/macro/t"], 1)} and macro bootstrap-t to ${percent(PAIRED_STUDY_COVERAGE["k20-lowest/macro/bootstrap-t"], 1)}, all missing more often in samples in which fewer than ${FEWEST_DIFFERING_DOCUMENTS} documents differ (${PAIRED_STUDIES})`;

/**
 * What the difference's other intervals are worth: under SRS, the paired studies' caveat; under
 * a declared design, that they treat the documents as one simple random sample (the design's own
 * interval, recommended, accounts for how they were drawn; the studies were of SRS).
 */
export function otherIntervalsCaveat(design: DesignSummary): string {
  return design.kind === "srs"
    ? PAIRED_CAVEAT
    : `the other intervals treat the documents as one simple random sample and ignore the ${design.kind} design; its own interval, the recommended one, accounts for how the documents were drawn (ragci's studies of the others are of SRS)`;
}

/** The SRS intervals of a difference, which under a declared design ignore it. */
const SRS_INTERVALS: ReadonlySet<string> = new Set(["cr2", "t-differing", "t", "cr1"]);

/**
 * The recommended macro t-differing's ν in words: D − 1 with D counted (K less the ties), or
 * 1 where D ≤ 1; null when another method is recommended.
 */
export function differingDfLine(c: Comparison): string | null {
  const macro = c.difference.macro;
  const interval = macro?.intervals["t-differing"];
  if (macro?.recommended !== "t-differing" || !interval?.available) return null;
  const k = c.difference.documents;
  const differing = k - Math.round(c.ties * k);
  return `macro t-differing: ν = ${differing > 1 ? `D − 1 = ${differing - 1}` : "1 (D − 1 would be below 1)"}, D = ${differing} of the ${k} documents differ; ${differing === k ? "no ties, so it is t" : `the ${k - differing} tied documents' exact zeros say nothing of how the differences spread`}`;
}

/**
 * "tfidf − bm25: no interval of the difference is recommended (…)": the intervals above are shown
 * but not recommended (recommendationWithheld.ts); none when a recommendation is made.
 */
export function withheldLines(c: Comparison): string[] {
  const d = c.difference;
  const withheld = (["micro", "macro"] as const).flatMap((e) => {
    const why = d[e]?.recommendationWithheld;
    return why ? [{ e, why }] : [];
  });
  if (withheld.length === 0) return [];
  const which = withheld.map((w) => w.e).join(" or ");
  return [
    `${c.b} − ${c.a}: no interval of the difference is recommended (${which}; those shown are not): ${(withheld[0] as { why: { reason: string } }).why.reason}`,
  ];
}

function pairSection(c: Comparison, metric: string, color: boolean): string[] {
  const d = c.difference;
  const estimands = (["micro", "macro"] as const).filter((e) => d[e]);
  const decimals = differenceDecimals(c);
  const lines: string[] = [];
  lines.push(
    bold(color)(
      `metric ${metric} · ${c.b} − ${c.a} · ${d.documents} documents · ${count(d.results)} paired queries · ${designLine(d)}`,
    ),
    "",
  );
  const rows: string[][] = [
    ["", c.a, c.b, `${c.b} − ${c.a}`, `${levelPercent(d.level)} interval`, "se", "ν", "method"],
  ];
  for (const e of estimands) {
    const t = c.tests[e];
    const own = (x: Comparison["aAnalysis"]) => fixed(x[e]?.estimate ?? Number.NaN, 3);
    rows.push([
      e,
      own(c.aAnalysis),
      own(c.bAnalysis),
      fixed(d[e]?.estimate ?? Number.NaN, decimals),
      t ? `[${fixed(t.lower, decimals)}, ${fixed(t.upper, decimals)}]` : "unavailable",
      t ? significant(t.se) : "",
      t ? degreesOfFreedom(t.df) : "",
      t ? `${t.method}${d[e]?.recommendationWithheld ? " (not recommended)" : ""}` : "",
    ]);
  }
  lines.push(...alignColumns(rows, ["l", "r", "r", "r", "l", "r", "l", "l"], "   "));
  lines.push("", "verdict");
  for (const e of estimands) lines.push(`  ${bold(color)(verdict(c, e, d.level))}`);
  lines.push(
    `  ties: ${percent(c.ties)} of documents have a summed difference of exactly 0; ${c.queriesDiffering === null ? "how many queries differ is not known from per-document sums of scores" : `${percent(c.queriesDiffering, 1)} of queries differ`}`,
  );
  const differingDf = differingDfLine(c);
  if (differingDf) lines.push(`  ${differingDf}`);
  for (const line of withheldLines(c)) lines.push(`  ${bold(color)(line)}`);
  // As analyze's terminal and compare's page: a stratum the lonely-PSU rule treated.
  for (const warning of lonelyPsuWarnings(d.design))
    lines.push(`  ${ansiStyle(color).yellow("!")} ${warning}`);
  const also: string[][] = [];
  for (const e of estimands) {
    for (const method of [
      "cr2",
      "t-differing",
      "t",
      "bootstrap-t",
      "bootstrap-percentile",
      "cr1",
      "wald-iid",
      "wald-effective-n",
      "chunk-bootstrap",
    ] as const) {
      const interval = d[e]?.intervals[method];
      // The recommended interval is the table above (cr2 or t, or the design's).
      if (!interval || method === d[e]?.recommended) continue;
      const score = c.censusStudy?.methods[`${e}/${method}` as "micro/cr2"];
      const covers = score ? `covers ${percent(score.coverage, 1)} on the census` : "";
      const ignoresDesign =
        d.design.kind !== "srs" && SRS_INTERVALS.has(method)
          ? `as if one simple random sample: ignores the ${d.design.kind} design`
          : "";
      also.push([
        e,
        method,
        bounds(interval, decimals),
        interval.available ? covers || ignoresDesign : interval.reason,
      ]);
    }
  }
  lines.push("", dim(color)("other intervals for the difference — not recommended here"));
  lines.push(...alignColumns(also, ["l", "l", "l", "l"], "  ").map((l) => dim(color)(`  ${l}`)));
  lines.push(`  ${dim(color)(`(${otherIntervalsCaveat(d.design)})`)}`);
  lines.push("", "each system");
  const each = systemsRecommended(c, estimands).map((system) => [
    system.name,
    ...system.estimands.flatMap((x) => [
      `${x.estimand} ${fixed(x.estimate ?? Number.NaN, 3)}`,
      bounds(x.interval, 3),
      x.interval?.available ? `ν = ${degreesOfFreedom(x.interval.df)}` : "",
    ]),
  ]);
  lines.push(...alignColumns(each, ["l", "l", "l", "l", "l", "l", "l"], "  ").map((l) => `  ${l}`));
  lines.push("", "advice");
  const warnings = d.advice.filter(
    (a) =>
      a.code === "census-study" ||
      a.code === "very-few-documents" ||
      a.code === "few-documents" ||
      a.code === "few-differing-documents" ||
      a.code === "dominant-document",
  );
  for (const a of warnings) lines.push(`  ! ${a.message}`);
  for (const a of d.advice.filter((x) => x.code === "paired-studies" || x.code === "studied-level"))
    lines.push(`  · ${a.message}`);
  lines.push(
    c.censusStudy
      ? "  · The coverages above are of this census and K; they say how far to trust each interval here."
      : "  · Before claiming one system is better, check the method with a coverage simulation on your own documents (ragci simulate; the article's study did).",
    `  · ${inPoints(c) ? "Differences are in percentage points of the metric. " : ""}Outside the inference: the fixed index and the population of questions.`,
  );
  return lines;
}

/**
 * The tie groups in words. With no pair left undecided (every Holm p below α), every pair is
 * told apart; otherwise the groups of two or more systems whose members cannot be.
 */
/** Header and one row per pair: each estimand's difference, interval and Holm-adjusted p. */
export function holmDifferenceRows(m: MetricComparisons): string[][] {
  const rows: string[][] = [
    ["b − a", "micro", "interval", "p (Holm)", "macro", "interval", "p (Holm)"],
  ];
  m.comparisons.forEach((c, i) => {
    const cell = (e: "micro" | "macro") => {
      const t = c.tests[e];
      const holm = m.holm[i]?.[e];
      return t
        ? [
            fixed(t.estimate, 3),
            `[${fixed(t.lower, 3)}, ${fixed(t.upper, 3)}]`,
            holm === undefined ? "" : pValue(holm),
          ]
        : ["", "unavailable", ""];
    };
    rows.push([`${c.b} − ${c.a}`, ...cell("micro"), ...cell("macro")]);
  });
  return rows;
}

export function groupsLine(
  estimand: "micro" | "macro",
  groups: readonly (readonly string[])[],
  m: MetricComparisons,
  level: number,
): string {
  const undecided = m.holm.some((h) => (h[estimand] ?? 1) >= 1 - level);
  const at = `at ${levelPercent(level)} (Holm)`;
  if (!undecided) return `${estimand}: every pair is told apart ${at}`;
  const tied = groups.filter((g) => g.length > 1);
  return `${estimand}: cannot be told apart ${at}: ${tied.map((g) => `{${g.join(", ")}}`).join(" ")}`;
}

function manySection(m: MetricComparisons, report: ComparisonReport, color: boolean): string[] {
  const lines: string[] = [
    bold(color)(
      `metric ${m.metric} · ${report.systems.length} systems · ${report.mode === "baseline" ? `each against ${m.comparisons[0]?.a}` : "all pairs"} · Holm-adjusted p-values${m.comparisons[0] ? ` · ${designLine(m.comparisons[0].difference)}` : ""}`,
    ),
    "",
  ];
  const first = m.comparisons[0];
  if (!first) return lines;
  const analyses = new Map<string, Comparison["aAnalysis"]>();
  for (const c of m.comparisons) {
    analyses.set(c.a, c.aAnalysis);
    analyses.set(c.b, c.bAnalysis);
  }
  const ranking = [...analyses].sort(
    (x, y) => (y[1].micro?.estimate ?? 0) - (x[1].micro?.estimate ?? 0),
  );
  const rank: string[][] = [["system", "micro", "cr2 interval", "ν", "macro", "t interval"]];
  for (const [name, a] of ranking) {
    rank.push([
      name,
      fixed(a.micro?.estimate ?? Number.NaN, 3),
      bounds(a.micro?.intervals.cr2, 3),
      degreesOfFreedom((a.micro?.intervals.cr2 as { df?: number | null })?.df ?? null),
      fixed(a.macro?.estimate ?? Number.NaN, 3),
      bounds(a.macro?.intervals.t, 3),
    ]);
  }
  lines.push(
    "ranking",
    ...alignColumns(rank, ["l", "r", "l", "l", "r", "l"], "   ").map((l) => `  ${l}`),
    "",
  );
  const pairs = holmDifferenceRows(m);
  lines.push(
    "differences",
    ...alignColumns(pairs, ["l", "r", "l", "r", "r", "l", "r"], "   ").map((l) => `  ${l}`),
  );
  for (const e of ["micro", "macro"] as const) {
    const groups = m.groups[e];
    if (groups) lines.push(`  ${groupsLine(e, groups, m, first.difference.level)}`);
  }
  for (const c of m.comparisons) for (const line of withheldLines(c)) lines.push(`  · ${line}`);
  lines.push(
    "",
    "  · Before claiming one system is better, check the method with a coverage simulation on your own documents.",
  );
  return lines;
}

/** Several metrics: one line per metric × pair first; the sections follow unchanged. */
function overview(report: ComparisonReport): string {
  const rows = comparisonOverviewRows(report);
  const level = report.metrics[0]?.comparisons[0]?.difference.level ?? 0.95;
  const align = (rows[0] ?? []).map((h) =>
    h === "K" || h === "micro" || h === "macro" ? ("r" as const) : ("l" as const),
  );
  return [
    `overview: ${rows.length - 1} differences, ${levelPercent(level)} intervals (recommended method); details follow`,
    "",
    ...alignColumns(rows, align, "   "),
  ].join("\n");
}

export function comparisonTerminal(
  report: ComparisonReport,
  options: { readonly color: boolean },
): string {
  const parts = report.metrics.map((m) =>
    (report.mode === "two"
      ? pairSection(m.comparisons[0] as Comparison, m.metric, options.color)
      : manySection(m, report, options.color)
    ).join("\n"),
  );
  const dropped = Object.entries(report.dropped).filter(([, k]) => k > 0);
  const footer = [
    ...(dropped.length > 0
      ? [
          `--intersect dropped ${dropped.map(([s, k]) => `${k} queries of ${s}`).join(", ")}; ${report.queries} common queries kept`,
        ]
      : []),
    ...report.notices.map((n) => dim(options.color)(n)),
    ...report.inputs.map((i) =>
      dim(options.color)(`input ${i.file} (${count(i.rows)} rows) sha256 ${i.sha256}`),
    ),
    ...[summationNote(report.summation)].flatMap((note) =>
      note ? [dim(options.color)(note)] : [],
    ),
    ...(report.aggregatesFile
      ? [dim(options.color)(`per-document aggregates written to ${report.aggregatesFile}`)]
      : []),
  ];
  if (report.metrics.length > 1) parts.unshift(overview(report));
  for (const f of report.facets ?? [])
    parts.push(
      [
        `system ${f.system} · metric ${f.metric}`,
        ...facetHeaderLines(f.components),
        ...facetComponentsLines(f.components).slice(1),
      ].join("\n"),
    );
  // The gate's decision last, where a CI log is read from.
  if (report.gate) parts.push(blocksToTerminal(gateBlocks(report.gate, false)).trimEnd());
  return `ragci compare · ${report.systems.join(", ")}\n\n${parts.join("\n\n")}\n\n${footer.join("\n")}\n`;
}
