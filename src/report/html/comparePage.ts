import type { Analysis } from "../../core/analyze.js";
import type { Comparison } from "../../core/compare.js";
import type { DocumentStats } from "../../core/types.js";
import { comparisonOverviewRows, differenceDecimals } from "../comparisonOverview.js";
import type { ComparisonReport, MetricComparisons } from "../comparisonReport.js";
import { differingDfLine, groupsLine, otherIntervalsCaveat } from "../comparisonTerminal.js";
import { count, degreesOfFreedom, fixed, percent, pValue, significant } from "../format.js";
import { verdict } from "../verdict.js";
import { analysisChecklist } from "./analysisChecklist.js";
import { escapeHtml } from "./escapeHtml.js";
import { facetSection } from "./facetSection.js";
import { htmlTable, type TableRow } from "./htmlTable.js";
import { inputWarningsSection } from "./inputWarningsSection.js";
import { levelText } from "./intervalTables.js";
import { htmlPage } from "./pageShell.js";
import { pairedDifferencesFigure } from "./pairedDifferencesFigure.js";
import {
  type AggregatesDownload,
  inputProvenance,
  provenanceSection,
} from "./provenanceSection.js";
import { systemEstimatesFigure } from "./systemEstimatesFigure.js";

export interface CompareHtmlInput {
  readonly report: ComparisonReport;
  /** Per metric (report order), per comparison (its order), the per-document sums of b − a. */
  readonly differences: readonly (readonly DocumentStats[])[];
  readonly aggregates: AggregatesDownload;
}

/** The terminal's pair table: each system, the difference, its interval, se, ν, method, p. */
function differenceTable(c: Comparison, metric: string, decimals: number): string {
  const key = { metric, a: c.a, b: c.b };
  const rows: TableRow[] = (["micro", "macro"] as const).flatMap((e) => {
    const x = c.difference[e];
    if (!x) return [];
    const t = c.tests[e];
    return [
      {
        className: "recommended",
        data: { ...key, estimand: e },
        cells: [
          e,
          { text: fixed(c.aAnalysis[e]?.estimate ?? Number.NaN, 3), numeric: true, field: "a" },
          { text: fixed(c.bAnalysis[e]?.estimate ?? Number.NaN, 3), numeric: true, field: "b" },
          { text: fixed(x.estimate, decimals), numeric: true, field: "estimate" },
          { text: t ? fixed(t.lower, decimals) : "unavailable", numeric: true, field: "lower" },
          { text: t ? fixed(t.upper, decimals) : "", numeric: true, field: "upper" },
          { text: t ? significant(t.se) : "", numeric: true, field: "se" },
          { text: t ? degreesOfFreedom(t.df) : "", numeric: true, field: "df" },
          {
            text: `${t?.method ?? x.recommended}${x.recommendationWithheld ? " (not recommended)" : ""}`,
            field: "method",
          },
          { text: t?.p == null ? "" : pValue(t.p), numeric: true, field: "p" },
        ],
      },
    ];
  });
  return htmlTable({
    header: [
      "",
      { text: c.a, numeric: true },
      { text: c.b, numeric: true },
      { text: `${c.b} − ${c.a}`, numeric: true },
      { text: `${levelText(c.difference.level)} lower`, numeric: true },
      { text: "upper", numeric: true },
      { text: "se", numeric: true },
      { text: "ν", numeric: true },
      "method",
      { text: "p", numeric: true },
    ],
    rows,
    data: { ...key, table: "difference" },
  });
}

function systemsOf(comparisons: readonly Comparison[]): Map<string, Analysis> {
  const systems = new Map<string, Analysis>();
  for (const c of comparisons) {
    systems.set(c.a, c.aAnalysis);
    systems.set(c.b, c.bAnalysis);
  }
  return systems;
}

function pairSection(
  c: Comparison,
  stats: DocumentStats,
  m: MetricComparisons,
  id: string,
  many: boolean,
): string {
  const decimals = differenceDecimals(c);
  const d = c.difference;
  const estimands = (["micro", "macro"] as const).filter((e) => d[e]);
  const verdicts = estimands.map(
    (e) =>
      `<li>${escapeHtml(verdict(c, e, d.level))}${many ? " (unadjusted; Holm-adjusted p above)" : ""}</li>`,
  );
  return `<section id="${id}" class="comparison">
<h2>${escapeHtml(`${m.metric}: ${c.b} − ${c.a}`)}</h2>
${differenceTable(c, m.metric, decimals)}
<h3>Verdict</h3>
<ul>${verdicts.join("")}<li>${escapeHtml(`ties: ${percent(c.ties)} of documents have a summed difference of exactly 0; ${c.queriesDiffering === null ? "how many queries differ is not known from per-document sums of scores" : `${percent(c.queriesDiffering, 1)} of queries differ`}`)}</li>${[
    differingDfLine(c),
  ]
    .flatMap((line) => (line ? [`<li>${escapeHtml(line)}</li>`] : []))
    .join("")}${d.advice
    .filter((a) => a.code === "few-differing-documents")
    .map((a) => `<li>${escapeHtml(a.message)}</li>`)
    .join("")}</ul>
<p>${escapeHtml(c.censusStudy ? "The recommended interval comes from a coverage study of the differences on your census at this K." : "Before claiming one system is better, check the method with a coverage simulation on your own documents (ragci simulate).")} ${escapeHtml(`The other intervals of the difference are listed below; ${otherIntervalsCaveat(d.design)}.`)}</p>
${pairedDifferencesFigure({ id: `${id}-docs`, comparison: c, stats, metric: m.metric, decimals })}
${many ? "" : systemEstimatesFigure({ id: `${id}-systems`, metric: m.metric, systems: systemsOf([c]), groups: {}, levelText: levelText(d.level) })}
${analysisChecklist({
  analysis: d,
  stats,
  id,
  what: ` — ${c.b} − ${c.a}, ${m.metric}`,
  decimals,
  resultsName: "paired queries",
  key: { metric: m.metric, a: c.a, b: c.b },
  coverage: (estimand, method) => {
    const score = c.censusStudy?.methods[`${estimand}/${method}` as "micro/cr2"];
    return score ? `covers ${percent(score.coverage, 1)} on the census` : null;
  },
  ties: true,
  valuesNote: `Ties: ${percent(c.ties)} of the documents have a summed difference of exactly 0 (the share at 0 of the differences; there is no bound at 1 for a difference).`,
})}
</section>`;
}

/** More than two systems: the ranking with intervals and tie groups, and the Holm-adjusted tests. */
function manySection(m: MetricComparisons, report: ComparisonReport, id: string): string {
  const level = m.comparisons[0]?.difference.level ?? 0.95;
  const rows: TableRow[] = m.comparisons.map((c, i) => ({
    data: { metric: m.metric, a: c.a, b: c.b },
    cells: [
      `${c.b} − ${c.a}`,
      ...(["micro", "macro"] as const).flatMap((e) => {
        const t = c.tests[e];
        const holm = m.holm[i]?.[e];
        return t
          ? [
              { text: fixed(t.estimate, 3), numeric: true, field: `${e}-estimate` },
              `[${fixed(t.lower, 3)}, ${fixed(t.upper, 3)}]`,
              { text: holm === undefined ? "" : pValue(holm), numeric: true, field: `${e}-holm` },
            ]
          : ["", "unavailable", ""];
      }),
    ],
  }));
  const groups = (["micro", "macro"] as const).flatMap((e) => {
    const g = m.groups[e];
    return g ? [`<li>${escapeHtml(groupsLine(e, g, m, level))}</li>`] : [];
  });
  return `<section id="${id}" class="systems">
<h2>${escapeHtml(`${m.metric}: ${report.systems.length} systems, ${report.mode === "baseline" ? `each against ${m.comparisons[0]?.a}` : "all pairs"}`)}</h2>
${systemEstimatesFigure({ id: `${id}-systems`, metric: m.metric, systems: systemsOf(m.comparisons), groups: m.groups, levelText: levelText(level) })}
${htmlTable({ header: ["b − a", { text: "micro", numeric: true }, "interval", { text: "p (Holm)", numeric: true }, { text: "macro", numeric: true }, "interval", { text: "p (Holm)", numeric: true }], rows, data: { metric: m.metric, table: "holm" } })}
${groups.length > 0 ? `<ul>${groups.join("")}</ul>` : ""}
</section>`;
}

/** With facets: each system's and each difference's intervals and variance components. */
function facetsSection(report: ComparisonReport, metric: string, id: string): string[] {
  const fits = (report.facets ?? []).filter((f) => f.metric === metric);
  if (fits.length === 0) return [];
  return [
    `<section id="${id}" class="facets">
<h2>${escapeHtml(`${metric}: judges, wordings and reruns`)}</h2>
${fits.map((f, k) => facetSection(f.components, { id: `${id}-${k + 1}`, heading: f.system, key: { metric, system: f.system } })).join("\n")}
</section>`,
  ];
}

/** The page of `ragci compare --html`. */
export function compareHtml(input: CompareHtmlInput): string {
  const { report } = input;
  const many = report.mode !== "two";
  const sections = report.metrics.flatMap((m, i) => [
    ...(many ? [manySection(m, report, `m${i + 1}`)] : []),
    ...m.comparisons.map((c, j) =>
      pairSection(c, input.differences[i]?.[j] as DocumentStats, m, `m${i + 1}-c${j + 1}`, many),
    ),
    ...facetsSection(report, m.metric, `m${i + 1}-facets`),
  ]);
  const dropped = Object.entries(report.dropped).filter(([, k]) => k > 0);
  const [header = [], ...rows] = comparisonOverviewRows(report);
  const sectionIds = report.metrics.flatMap((m, i) =>
    m.comparisons.map((_, j) => `m${i + 1}-c${j + 1}`),
  );
  const overview =
    report.metrics.length > 1
      ? `<section id="overview"><h2>Overview</h2>${htmlTable({
          header: header.map((h) => ({
            text: h,
            numeric: h === "K" || h === "micro" || h === "macro",
          })),
          rows: rows.map((r, k) => ({
            data: { metric: r[0] ?? "", pair: r[1] ?? "" },
            cells: r.map((text, i) => ({
              text,
              numeric: i === 2 || i === 3 || i === 7,
              // The pair links to its section (rows are in the sections' metric × pair order).
              ...(i === 1 && sectionIds[k] ? { href: `#${sectionIds[k]}` } : {}),
            })),
          })),
          data: { table: "overview" },
        })}</section>`
      : "";
  return htmlPage({
    title: `ragci compare · ${report.systems.join(", ")}`,
    lede: `metric${report.metrics.length > 1 ? "s" : ""} ${report.metrics.map((m) => m.metric).join(", ")} · ${count(report.queries)} paired queries · differences per query, summed per document${dropped.length > 0 ? ` · --intersect dropped ${dropped.map(([s, k]) => `${k} queries of ${s}`).join(", ")}` : ""}`,
    body: [
      inputWarningsSection(report.notices),
      overview,
      ...sections,
      provenanceSection({
        inputs: report.inputs.map(inputProvenance),
        aggregates: input.aggregates,
        digests: [],
        rerun: `Re-run from it: ragci compare ${input.aggregates.fileName} --aggregated --metric ${report.metrics.map((m) => m.metric).join(",")} (each system's rows and, under the system "${report.metrics[0]?.comparisons[0] ? `${report.metrics[0].comparisons[0].b} - ${report.metrics[0].comparisons[0].a}` : "b - a"}", each pair's per-document differences; only the chunk bootstrap needs the per-query rows).`,
        notes: report.aggregatesFile
          ? [`The same table was written to ${report.aggregatesFile}.`]
          : [],
      }),
    ].join("\n"),
    version: report.version,
  });
}
