import type { DocumentStats } from "../../core/types.js";
import { analysisOverview } from "../analysisOverview.js";
import type { AnalysisEntry, AnalysisReport } from "../analysisReport.js";
import { estimateDecimals } from "../estimateDecimals.js";
import { count, percent } from "../format.js";
import { metricKindText } from "../terminal.js";
import { analysisChecklist } from "./analysisChecklist.js";
import { escapeHtml } from "./escapeHtml.js";
import { facetSection } from "./facetSection.js";
import { htmlTable } from "./htmlTable.js";
import { inputWarningsSection } from "./inputWarningsSection.js";
import { estimateTable, levelText } from "./intervalTables.js";
import { htmlPage } from "./pageShell.js";
import {
  type AggregatesDownload,
  inputProvenance,
  provenanceSection,
} from "./provenanceSection.js";

export interface AnalyzeHtmlInput {
  readonly report: AnalysisReport;
  /** Each entry's per-document sums, in the order of report.entries. */
  readonly stats: readonly DocumentStats[];
  readonly aggregates: AggregatesDownload;
}

function entryName(entry: AnalysisEntry): string {
  return entry.system === null ? entry.metric : `${entry.system} · ${entry.metric}`;
}

function entryKey(entry: AnalysisEntry): Record<string, string> {
  return { system: entry.system ?? "", metric: entry.metric };
}

/** With several systems or metrics, the page starts with the terminal's overview table. */
function overviewSection(report: AnalysisReport): string {
  const lines = analysisOverview(report);
  const estimands = (["micro", "macro"] as const).filter((e) => lines.some((l) => l[e] !== null));
  const withSystem = lines.some((l) => l.system !== null);
  return `<section id="overview"><h2>Overview</h2>
<p>${lines.length} analyses; each line gives the recommended ${levelText(report.entries[0]?.analysis.level ?? 0.95)} interval with its ν. The sections below have the reasons, the figures and every other interval.</p>
${htmlTable({
  header: [
    ...(withSystem ? ["system"] : []),
    "metric",
    { text: "K", numeric: true },
    ...estimands.flatMap((e) => [{ text: e, numeric: true }, "interval", "ν", "method"]),
  ],
  rows: lines.map((l, i) => ({
    data: { system: l.system ?? "", metric: l.metric },
    cells: [
      ...(withSystem ? [l.system ?? ""] : []),
      { text: l.metric, href: `#analysis-${i + 1}` },
      { text: String(l.documents), numeric: true },
      ...estimands.flatMap((e) => {
        const c = l[e];
        return c
          ? [
              { text: c.estimate, numeric: true, field: `${e}-estimate` },
              { text: c.interval, field: `${e}-interval` },
              c.df,
              c.method,
            ]
          : ["", "", "", ""];
      }),
    ],
  })),
  data: { table: "overview" },
})}</section>`;
}

function entrySection(entry: AnalysisEntry, stats: DocumentStats, index: number): string {
  const a = entry.analysis;
  const decimals = estimateDecimals(a);
  const name = entryName(entry);
  return `<section id="analysis-${index + 1}" class="analysis">
<h2>${escapeHtml(name)} <small>(${escapeHtml(metricKindText(a))})</small></h2>
${entry.facets ? facetSection(entry.facets, { id: `a${index + 1}-facets`, heading: "Judges, wordings and reruns", key: entryKey(entry) }) : ""}
${estimateTable(a, decimals, entryKey(entry))}
${analysisChecklist({
  analysis: a,
  stats,
  id: `a${index + 1}`,
  what: ` — ${name}`,
  decimals,
  resultsName: "results",
  key: entryKey(entry),
  coverage: (estimand, method) => {
    const score = entry.censusStudy?.study.methods[`${estimand}/${method}` as "micro/cr2"];
    return score ? `covers ${percent(score.coverage, 1)} on the census` : null;
  },
})}
</section>`;
}

/** The page of `ragci analyze --html`: overview (several analyses), one checklist each, provenance. */
export function analyzeHtml(input: AnalyzeHtmlInput): string {
  const { report } = input;
  const first = report.entries[0]?.analysis;
  // K and N in the header only when every analysis has the same; else each section says its own.
  const sameSize = report.entries.every(
    (e) => e.analysis.documents === first?.documents && e.analysis.results === first?.results,
  );
  const binaryOnly = report.entries.every((e) => e.analysis.binary);
  const systems = [...new Set(report.entries.map((e) => e.system).filter((s) => s !== null))];
  const metrics = [...new Set(report.entries.map((e) => e.metric))];
  const body = [
    inputWarningsSection(report.notices),
    report.entries.length > 1 ? overviewSection(report) : "",
    ...report.entries.map((entry, i) => entrySection(entry, input.stats[i] as DocumentStats, i)),
    provenanceSection({
      inputs: report.inputs.map(inputProvenance),
      aggregates: input.aggregates,
      digests: report.entries.map((e) => ({ label: entryName(e), sha256: e.aggregatesSha256 })),
      rerun: `Re-run from it: ragci analyze ${input.aggregates.fileName} --aggregated${systems.length > 0 ? " --system system" : ""} --metric ${metrics.join(",")}, with this run's other options, reproduces the digests below and so the analysis${binaryOnly ? "" : " (except the chunk bootstrap of a metric that is not 0/1, a contrast, which needs the per-query rows)"}.`,
      notes: [
        ...(report.summation === "double-single-thread"
          ? [
              "Sums were added in double precision on one thread, in file order (values too large for exact decimal sums).",
            ]
          : []),
        ...(report.aggregatesFile
          ? [`The same table was written to ${report.aggregatesFile}.`]
          : []),
      ],
    }),
  ];
  return htmlPage({
    title: `ragci analyze · ${report.inputs.map((i) => i.file).join(" + ")}`,
    lede: `${systems.length > 0 ? `system${systems.length > 1 ? "s" : ""} ${systems.join(", ")} · ` : ""}metric${metrics.length > 1 ? "s" : ""} ${metrics.join(", ")} · ${first && sameSize ? `${first.documents} documents · ${count(first.results)} results` : "K and N per analysis below"}`,
    body: body.filter(Boolean).join("\n"),
    version: report.version,
  });
}
