import type { Comparison } from "../core/compare.js";
import type { Interval } from "../core/types.js";
import { differenceDecimals } from "./comparisonOverview.js";
import type { ComparisonReport, MetricComparisons } from "./comparisonReport.js";
import {
  differingDfLine,
  groupsLine,
  holmDifferenceRows,
  otherIntervalsCaveat,
  PAIRED_CAVEAT,
} from "./comparisonTerminal.js";
import { facetComponentBlocks, facetIntervalBlocks } from "./facetBlocks.js";
import { count, degreesOfFreedom, fixed, levelPercent, percent, significant } from "./format.js";
import { gateBlocks } from "./gateReport.js";
import { blocksToMarkdown, type ReportBlock } from "./reportBlocks.js";
import { summationNote } from "./summationNote.js";
import { systemsRecommended } from "./systemsRecommended.js";
import { designLine } from "./terminal.js";
import { verdict } from "./verdict.js";

function bounds(interval: Interval | undefined, decimals: number): string {
  if (!interval) return "";
  return interval.available
    ? `[${fixed(interval.lower, decimals)}, ${fixed(interval.upper, decimals)}]`
    : `unavailable: ${interval.reason}`;
}

/** One pair: the difference's intervals (recommended first), the verdict, each system. */
function pairBlocks(c: Comparison, metric: string): ReportBlock[] {
  const d = c.difference;
  const estimands = (["micro", "macro"] as const).filter((e) => d[e]);
  const decimals = differenceDecimals(c);
  const rows: string[][] = [["estimand", "method", `${c.b} − ${c.a}`, "interval", "se", "ν"]];
  for (const e of estimands) {
    const analysis = d[e];
    if (!analysis) continue;
    const methods = [
      analysis.recommended,
      ...Object.keys(analysis.intervals).filter((m) => m !== analysis.recommended),
    ];
    for (const method of methods) {
      const interval = analysis.intervals[method as keyof typeof analysis.intervals];
      if (!interval) continue;
      rows.push([
        e,
        method !== analysis.recommended
          ? method
          : analysis.recommendationWithheld
            ? `${method} (not recommended: ${analysis.recommendationWithheld.reason})`
            : `**${method}** (recommended)`,
        fixed(analysis.estimate, decimals),
        bounds(interval, decimals),
        interval.available && interval.se !== null ? significant(interval.se) : "",
        interval.available && interval.q !== null ? degreesOfFreedom(interval.df) : "",
      ]);
    }
  }
  const systems: string[][] = [
    ["system", ...estimands.flatMap((e) => [e, "interval", "ν"])],
    ...systemsRecommended(c, estimands).map((system) => [
      system.name,
      ...system.estimands.flatMap((x) => [
        fixed(x.estimate ?? Number.NaN, 3),
        bounds(x.interval, 3),
        x.interval?.available ? degreesOfFreedom(x.interval.df) : "",
      ]),
    ]),
  ];
  return [
    { kind: "heading", text: `${metric} · ${c.b} − ${c.a}` },
    {
      kind: "text",
      text: `${d.documents} documents (K), ${count(d.results)} paired queries; ${designLine(d)}; level ${levelPercent(d.level, 1)}.`,
    },
    { kind: "table", rows, align: ["l", "l", "r", "l", "r", "r"] },
    {
      kind: "bullets",
      items: [
        ...estimands.map((e) => verdict(c, e, d.level)),
        `ties: ${percent(c.ties)} of documents have a summed difference of exactly 0; ${c.queriesDiffering === null ? "how many queries differ is not known from per-document sums of scores" : `${percent(c.queriesDiffering, 1)} of queries differ`}`,
        ...[differingDfLine(c)].flatMap((line) => (line ? [line] : [])),
        ...d.advice
          .filter(
            (a) =>
              a.code === "few-differing-documents" ||
              a.code === "paired-studies" ||
              a.code === "studied-level" ||
              a.code === "few-documents" ||
              a.code === "very-few-documents",
          )
          .map((a) => a.message),
        d.design.kind === "srs"
          ? `Why not the document bootstraps here: ${PAIRED_CAVEAT}.`
          : `Why the ${d.design.kind} interval: ${otherIntervalsCaveat(d.design)}.`,
      ],
    },
    { kind: "table", rows: systems, align: ["l", "r", "l", "r", "r", "l", "r"] },
  ];
}

/** Several pairs: each difference with its Holm p-value, then the tie groups. */
function manyBlocks(m: MetricComparisons, report: ComparisonReport): ReportBlock[] {
  const rows = holmDifferenceRows(m);
  const level = m.comparisons[0]?.difference.level ?? 0.95;
  const groups = (["micro", "macro"] as const).flatMap((e) => {
    const found = m.groups[e];
    return found ? [groupsLine(e, found, m, level)] : [];
  });
  return [
    {
      kind: "heading",
      text: `${m.metric} · ${report.systems.length} systems · ${report.mode === "baseline" ? `each against ${m.comparisons[0]?.a}` : "all pairs"}`,
    },
    { kind: "table", rows, align: ["l", "r", "l", "r", "r", "l", "r"] },
    // Against a baseline there are no tie groups: no empty list (blank lines in a PR comment).
    ...(groups.length > 0 ? [{ kind: "bullets" as const, items: groups }] : []),
  ];
}

/** The comparison report as Markdown, for a paper, a PR or a notebook. */
export function comparisonMarkdown(report: ComparisonReport): string {
  const blocks: ReportBlock[] = [
    { kind: "title", text: `ragci compare · ${report.systems.join(", ")}` },
    // A PR comment leads with what the build decided.
    ...(report.gate ? gateBlocks(report.gate, true) : []),
  ];
  for (const m of report.metrics) {
    blocks.push(
      ...(report.mode === "two"
        ? pairBlocks(m.comparisons[0] as Comparison, m.metric)
        : manyBlocks(m, report)),
      // With facets: each system's and each difference's intervals and components.
      ...(report.facets ?? [])
        .filter((f) => f.metric === m.metric)
        .flatMap((f): ReportBlock[] => [
          { kind: "heading", text: `${f.metric} · ${f.system} · judges, wordings and reruns` },
          ...facetIntervalBlocks(f.components),
          ...facetComponentBlocks(f.components),
        ]),
    );
  }
  const dropped = Object.entries(report.dropped).filter(([, k]) => k > 0);
  blocks.push({
    kind: "bullets",
    items: [
      ...(dropped.length > 0
        ? [
            `--intersect dropped ${dropped.map(([s, k]) => `${k} queries of ${s}`).join(", ")}; ${report.queries} common queries kept`,
          ]
        : []),
      "Before claiming one system is better, check the method with a coverage simulation on your own documents.",
      ...report.notices,
      ...report.inputs.map(
        (i) => `input \`${i.file}\` (${count(i.rows)} rows), SHA-256 \`${i.sha256}\``,
      ),
      ...[summationNote(report.summation)].flatMap((note) => (note ? [note] : [])),
    ],
  });
  return blocksToMarkdown(blocks);
}
