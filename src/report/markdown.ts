import type { EstimandAnalysis } from "../core/analyze.js";
import type { AnalysisEntry, AnalysisReport } from "./analysisReport.js";
import { facetComponentBlocks, facetIntervalBlocks } from "./facetBlocks.js";
import {
  count,
  decimalsFor,
  fixed,
  intervalDf,
  levelPercent,
  percent,
  significant,
} from "./format.js";
import { lonelyPsuNote, lonelyPsuWarnings } from "./lonelyPsuWarnings.js";
import { blocksToMarkdown } from "./reportBlocks.js";
import { metricKindText } from "./terminal.js";

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
}

function markdownAnalysis(entry: AnalysisEntry): string {
  const a = entry.analysis;
  const estimands = [a.micro, a.macro].filter((e): e is EstimandAnalysis => e !== null);
  const decimals = decimalsFor(
    Math.min(
      ...estimands.map((e) => {
        const i = e.intervals[e.recommended];
        return i?.available && i.upper > i.lower ? i.upper - i.lower : 0.1;
      }),
    ),
  );
  const title = `${entry.system === null ? "" : `${entry.system} · `}${entry.metric}`;
  const out = [
    `### ${title}`,
    "",
    `Metric ${entry.metric} (${metricKindText(a)}): ${a.documents} documents (K), ${a.results} results (N); ${a.design.kind !== "srs" ? `${a.design.kind} design` : a.design.population === null ? "SRS of documents, no finite-population correction" : `SRS of ${a.documents} of M = ${a.design.population} documents, fpc ${significant(a.design.fpc)}`}${lonelyPsuNote(a.design)}; level ${levelPercent(a.level, 1)}.`,
    "",
    // With judges or wordings, their population's interval first (the terminal's order).
    ...(entry.facets ? [blocksToMarkdown(facetIntervalBlocks(entry.facets))] : []),
    row(["estimand", "question", "estimate", "method", "interval", "se", "ν"]),
    row(["---", "---", "---:", "---", "---", "---:", "---:"]),
  ];
  for (const e of estimands) {
    for (const [method, interval] of Object.entries(e.intervals)) {
      if (!interval) continue;
      const name =
        method === e.recommended
          ? `**${method}** (recommended)`
          : method === "logit" && interval.available
            ? "logit (built on the logit scale; se on the estimate's)"
            : method;
      out.push(
        interval.available
          ? row([
              e.estimand,
              e.question,
              fixed(e.estimate, decimals),
              name,
              `[${fixed(interval.lower, decimals)}, ${fixed(interval.upper, decimals)}]`,
              interval.se === null ? "" : significant(interval.se),
              // Resampling intervals have no quantile and so no ν; "z" is for normal ones.
              intervalDf(interval),
            ])
          : row([
              e.estimand,
              e.question,
              fixed(e.estimate, decimals),
              name,
              `unavailable: ${interval.reason}`,
              "",
              "",
            ]),
      );
    }
  }
  const d = a.diagnostics;
  const [nMin, , nMed, , nMax] = d.sizes.quantiles;
  const [rMin, , rMed, , rMax] = d.rates.quantiles;
  out.push(
    "",
    `Diagnostics: n_d min ${count(nMin)}, median ${count(nMed)}, max ${count(nMax)} (largest document ${percent(d.sizes.shareLargestDocument)} of results); r_d min ${fixed(rMin, 2)}, median ${fixed(rMed, 2)}, max ${fixed(rMax, 2)}, ${percent(d.rates.fractionZero)} at 0 and ${percent(d.rates.fractionOne)} at 1; ${d.icc.available ? `ICC ${significant(d.icc.icc, 2)}` : "ICC unavailable"}, Kish DEFF ${significant(d.designEffect.deff)}, effective n ${count(Math.round(d.designEffect.effectiveN))}.`,
    "",
    ...lonelyPsuWarnings(a.design).map((w) => `- **Warning:** ${w}`),
    ...a.advice.map((x) => `- ${x.severity === "warning" ? "**Warning:** " : ""}${x.message}`),
  );
  if (entry.facets) out.push("", blocksToMarkdown(facetComponentBlocks(entry.facets)).trimEnd());
  return out.join("\n");
}

/**
 * The report as Markdown, for pasting into a paper, a PR or a notebook.
 *
 * @example // one analysis of the four documents of the cr2 example; line 5 of the page
 *   analysisReportMarkdown({ command: "ragci analyze", version: "0.1.0", inputs: [], entries: [{ metric: "hit", system: null, analysis: analyze(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { replicates: 0 }), aggregatesSha256: "" }], aggregatesFile: null, summation: "exact", notices: [] }).split("\n")[4]
 *   // => "Metric hit (0/1): 4 documents (K), 14 results (N); SRS of documents, no finite-population correction; level 95.0%."
 */
export function analysisReportMarkdown(report: AnalysisReport): string {
  const inputs = report.inputs.map(
    (i) => `- \`${i.file}\` (${i.kind}, ${i.rows} rows), SHA-256 \`${i.sha256}\``,
  );
  const notices = report.notices.map((n) => `- **Warning:** ${n}\n`).join("");
  return `## ragci ${report.command.replace(/^ragci /, "")}\n\n${notices ? `${notices}\n` : ""}${report.entries.map(markdownAnalysis).join("\n\n")}\n\nInputs:\n${inputs.join("\n")}\n`;
}
