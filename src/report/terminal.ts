import type { Analysis, EstimandAnalysis } from "../core/analyze.js";
import type { MethodId } from "../core/methods.js";
import type { AvailableInterval, Interval } from "../core/types.js";
import { analysisOverviewRows } from "./analysisOverview.js";
import type { AnalysisEntry, AnalysisReport } from "./analysisReport.js";
import { estimateDecimals } from "./estimateDecimals.js";
import { facetComponentsLines, facetHeaderLines } from "./facetComponents.js";
import {
  alignColumns,
  ansiStyle,
  count,
  degreesOfFreedom,
  fixed,
  intervalDf,
  levelPercent,
  percent,
  signed,
  significant,
} from "./format.js";
import { lonelyPsuNote, lonelyPsuWarnings } from "./lonelyPsuWarnings.js";
import { summationNote } from "./summationNote.js";

export interface TerminalOptions {
  /** ANSI colour (the CLI sets it only on a TTY without NO_COLOR). */
  readonly color: boolean;
}

const style = ansiStyle;

function bounds(interval: AvailableInterval, decimals: number): string {
  return `[${fixed(interval.lower, decimals)}, ${fixed(interval.upper, decimals)}]`;
}

/** "0/1", or a score's kind with the range of single results seen ("score, observed 2–17"). */
export function metricKindText(a: Analysis): string {
  if (a.metricKind === "0/1") return "0/1";
  const { min, max } = a.observedRange;
  const range =
    min === null || max === null
      ? "range of single results unknown"
      : `observed ${significant(min)} to ${significant(max)}`;
  return `${a.metricKind}, ${range}`;
}

/** The design in one line: SRS (with or without fpc), the strata, or the two stages. */
export function designLine(a: Analysis): string {
  const d = a.design;
  const detail = d.detail;
  if (detail && "strata" in detail) {
    const strata = Object.entries(detail.strata);
    return `stratified: ${strata.map(([h, s]) => `${h} ${s.sampled} of ${s.population}`).join(", ")}${lonelyPsuNote(d)}`;
  }
  if (detail && "units" in detail) {
    const units = Object.entries(detail.units);
    return `two-stage: ${units.length} of T = ${detail.firstStagePopulation} units, then documents (${units.map(([u, s]) => `${u} ${s.sampled}/${s.population}`).join(", ")})`;
  }
  if (d.population === null) return "SRS of documents, no fpc";
  return `SRS of ${a.documents} of M = ${d.population} documents (${percent(d.samplingFraction ?? 0, 1)}), fpc ×${significant(d.fpc)}`;
}

function alsoNote(method: MethodId, interval: AvailableInterval): string {
  const r = interval.resampling;
  if (method === "logit") return "bounded in [0, 1]; delta method on the logit scale";
  if (method === "cr2") return "CR2 cluster-robust, Imbens–Kolesár ν; not bounded";
  if (method === "t") return "t on the document rates; not bounded";
  if (method === "logit-cv3")
    return "bounded in [0, 1]; leave-one-document-out variance on the logit scale, own ν";
  if (!r) return "";
  const dropped =
    r.degenerate > 0
      ? `, ${percent(r.degenerate, 1)} degenerate${method === "bootstrap-t" ? " (dropped)" : ""}`
      : "";
  return `B = ${r.replicates}, seed ${r.seed}${dropped}`;
}

/** Why each contrast is wrong, in a few words (the variance ratio makes the iid one concrete). */
function contrastNote(method: MethodId, estimand: "micro" | "macro", a: Analysis): string {
  const ratio = a.diagnostics.varianceRatio;
  switch (method) {
    case "cr1":
      return "small-sample bias uncorrected";
    case "wald-iid":
      return estimand === "micro"
        ? `treats ${count(a.results)} results as independent${ratio !== null && ratio > 0 ? ` (variance ×1/${significant(ratio, 2)})` : ""}`
        : "same mistake around the macro mean";
    case "wald-effective-n":
      return `n = N/DEFF = ${count(Math.round(a.diagnostics.designEffect.effectiveN))} as if independent`;
    case "chunk-bootstrap":
      return "resamples results, not documents";
    default:
      return "";
  }
}

/** "covers 93.1% on the census" for an interval scored by --census, else "". */
function censusCoverage(entry: AnalysisEntry, estimand: string, method: string): string {
  const score = entry.censusStudy?.study.methods[`${estimand}/${method}` as `micro/cr2`];
  return score ? `covers ${percent(score.coverage, 1)} on the census` : "";
}

function withCoverage(note: string, coverage: string): string {
  return [coverage, note].filter(Boolean).join(" · ");
}

function estimandRow(
  e: EstimandAnalysis,
  decimals: number,
  s: ReturnType<typeof style>,
  entry: AnalysisEntry,
): string[] {
  const interval = e.intervals[e.recommended] as Interval;
  if (!interval.available)
    return [
      e.estimand,
      fixed(e.estimate, decimals),
      "unavailable",
      "",
      "",
      e.recommended,
      interval.reason,
    ];
  // Shown, not in bold, and said to be not recommended when ragci withholds its recommendation.
  const withheld = e.recommendationWithheld;
  const strong = withheld ? (x: string) => x : s.bold;
  return [
    strong(e.estimand),
    strong(fixed(e.estimate, decimals)),
    strong(bounds(interval, decimals)),
    interval.se === null ? "" : significant(interval.se),
    intervalDf(interval),
    withheld ? `${e.recommended} (not recommended)` : e.recommended,
    withheld
      ? `no interval recommended: ${withheld.reason}`
      : withCoverage(e.question, censusCoverage(entry, e.estimand, e.recommended)),
  ];
}

/** The careful statistician's summary of one metric (SPEC §12 layout). */
export function terminalAnalysis(
  entry: AnalysisEntry,
  report: AnalysisReport,
  options: TerminalOptions,
): string {
  const s = style(options.color);
  const a = entry.analysis;
  const estimands = [a.micro, a.macro].filter((e): e is EstimandAnalysis => e !== null);
  const decimals = estimateDecimals(a);
  const levelText = levelPercent(a.level);
  const source = report.inputs.map((i) => i.file).join(" + ");
  const kind = metricKindText(a);
  const lines: string[] = [];
  lines.push(
    s.bold(
      `${report.command} ${source} · ${entry.system === null ? "" : `system ${entry.system} · `}metric ${entry.metric} (${kind}) · ${a.documents} documents · ${count(a.results)} results · ${designLine(a)}`,
    ),
  );
  if (entry.facets) lines.push(...facetHeaderLines(entry.facets));
  lines.push("");
  const header = ["", "estimate", `${levelText} interval`, "se", "ν", "method", ""];
  lines.push(
    ...alignColumns(
      [header, ...estimands.map((e) => estimandRow(e, decimals, s, entry))],
      ["l", "r", "l", "r", "l", "l", "l"],
      "   ",
    ),
  );

  const also: string[][] = [];
  for (const e of estimands) {
    const others =
      a.design.kind === "srs"
        ? (["cr2", "t", "logit", "logit-cv3", "bootstrap-t", "bootstrap-percentile"] as const)
        : (["logit", "logit-cv3", "bootstrap-t", "bootstrap-percentile"] as const);
    for (const method of others) {
      const interval = e.intervals[method];
      // The recommended interval is the row above.
      if (!interval || method === e.recommended) continue;
      also.push(
        interval.available
          ? [
              e.estimand,
              method,
              bounds(interval, decimals),
              interval.df === null ? "" : `ν = ${degreesOfFreedom(interval.df)}`,
              withCoverage(alsoNote(method, interval), censusCoverage(entry, e.estimand, method)),
            ]
          : [e.estimand, method, "unavailable", "", interval.reason],
      );
    }
  }
  if (also.length > 0) {
    lines.push("", "also");
    lines.push(...alignColumns(also, ["l", "l", "l", "l", "l"], "  ").map((l) => `  ${l}`));
  }

  const contrasts: string[][] = [];
  for (const e of estimands) {
    for (const method of ["cr1", "wald-iid", "wald-effective-n", "chunk-bootstrap"] as const) {
      const interval = e.intervals[method];
      if (!interval) continue;
      contrasts.push(
        interval.available
          ? [
              e.estimand,
              method,
              bounds(interval, decimals),
              interval.q === null
                ? ""
                : interval.df === null
                  ? "z"
                  : `ν = ${degreesOfFreedom(interval.df)}`,
              withCoverage(
                contrastNote(method, e.estimand, a),
                censusCoverage(entry, e.estimand, method),
              ),
            ]
          : [e.estimand, method, "unavailable", "", interval.reason],
      );
    }
  }
  if (contrasts.length > 0) {
    lines.push("", s.dim("contrasts — shown to explain, not to use"));
    lines.push(
      ...alignColumns(contrasts, ["l", "l", "l", "l", "l"], "  ").map((l) => s.dim(`  ${l}`)),
    );
  }

  const d = a.diagnostics;
  const [nMin, nQ1, nMed, nQ3, nMax] = d.sizes.quantiles;
  const [rMin, , rMed, , rMax] = d.rates.quantiles;
  const rd = (x: number) => fixed(x, 2);
  const bounds01 =
    d.rates.fractionZero === 0 && d.rates.fractionOne === 0
      ? "none at 0 or 1"
      : `${percent(d.rates.fractionZero)} at 0 · ${percent(d.rates.fractionOne)} at 1`;
  const largest =
    d.sizes.largestDecileDocuments > 1
      ? ` — the largest document holds ${percent(d.sizes.shareLargestDocument)} of all results, the largest ${d.sizes.largestDecileDocuments} hold ${percent(d.sizes.shareLargestDecile)}`
      : ` — the largest document holds ${percent(d.sizes.shareLargestDocument)} of all results`;
  lines.push("", "diagnostics");
  lines.push(
    `  sizes n_d   min ${count(nMin)} · q1 ${count(nQ1)} · median ${count(nMed)} · q3 ${count(nQ3)} · max ${count(nMax)}${largest}`,
  );
  lines.push(
    `  ${a.binary ? "rates r_d" : "means r_d"}   min ${rd(rMin)} · median ${rd(rMed)} · max ${rd(rMax)} · ${bounds01}`,
  );
  const iccText = d.icc.available
    ? `ICC ${significant(d.icc.icc, 2)}`
    : `ICC unavailable (${d.icc.reason})`;
  lines.push(
    `  ${iccText} · Kish DEFF ${significant(d.designEffect.deff)} · effective n ${count(Math.round(d.designEffect.effectiveN))} of ${count(a.results)}${d.varianceRatio === null ? "" : ` · cr2/iid variance ${significant(d.varianceRatio)}`}`,
  );
  for (const e of estimands) {
    const top = d.influence[e.estimand][0];
    if (top) {
      // The largest change first: 0 means no document moves it, and none is singled out.
      lines.push(
        top.change === 0
          ? `  influence   leaving out any one document leaves the ${e.estimand} estimate as it is`
          : `  influence   without ${top.document} the ${e.estimand} estimate moves by ${signed(top.change, decimals)}`,
      );
    }
  }
  if (entry.facets) lines.push(...facetComponentsLines(entry.facets));
  lines.push("", "advice");
  for (const warning of lonelyPsuWarnings(a.design)) lines.push(`  ${s.yellow("!")} ${warning}`);
  for (const advice of a.advice) {
    const mark = advice.severity === "warning" ? s.yellow("!") : "·";
    lines.push(`  ${mark} ${advice.message}`);
  }
  return lines.join("\n");
}

/**
 * With several systems or metrics, one table first: a line per system × metric with each
 * estimand's estimate, recommended interval, ν and method, and K (the detailed blocks follow).
 */
function terminalOverview(report: AnalysisReport, options: TerminalOptions): string {
  const s = style(options.color);
  const rows = analysisOverviewRows(report);
  const level = report.entries[0]?.analysis.level ?? 0.95;
  const align = (rows[0] ?? []).map((h) =>
    h === "K" || h === "micro" || h === "macro" ? "r" : "l",
  );
  const source = report.inputs.map((i) => i.file).join(" + ");
  return [
    s.bold(
      `${report.command} ${source} · overview: ${report.entries.length} analyses, ${levelPercent(level)} intervals (recommended method); details follow`,
    ),
    "",
    ...alignColumns(rows, align, "   "),
  ].join("\n");
}

/**
 * Every entry of the report, separated by a blank line, plus where the inputs came from.
 *
 * @example // one analysis of the four documents of the cr2 example; the micro line of its table
 *   analysisReportTerminal({ command: "ragci analyze", version: "0.1.0", inputs: [], entries: [{ metric: "hit", system: null, analysis: analyze(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { replicates: 0 }), aggregatesSha256: "" }], aggregatesFile: null, summation: "exact", notices: [] }, { color: false }).split("\n")[3]
 *   // => "micro      0.500   [0.101, 0.899]   0.154   2.53   logit-cv3   rate of a random result"
 */
export function analysisReportTerminal(report: AnalysisReport, options: TerminalOptions): string {
  const s = style(options.color);
  const parts = report.entries.map((entry) => terminalAnalysis(entry, report, options));
  if (report.entries.length > 1) parts.unshift(terminalOverview(report, options));
  if (report.notices.length > 0)
    parts.unshift(report.notices.map((n) => `${s.yellow("!")} ${n}`).join("\n"));
  const provenance = report.inputs.map((i) =>
    s.dim(`input ${i.file} (${i.kind}, ${count(i.rows)} rows) sha256 ${i.sha256}`),
  );
  const sums = summationNote(report.summation);
  if (sums) provenance.push(s.dim(sums));
  if (report.aggregatesFile)
    provenance.push(s.dim(`per-document aggregates written to ${report.aggregatesFile}`));
  return `${parts.join("\n\n")}\n\n${provenance.join("\n")}\n`;
}
