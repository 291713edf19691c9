import type { Analysis, EstimandAnalysis } from "../../core/analyze.js";
import type { Advice } from "../../core/recommendMethod.js";
import type { DocumentStats, Interval } from "../../core/types.js";
import { count, fixed, percent, signed, significant } from "../format.js";
import { lonelyPsuWarnings } from "../lonelyPsuWarnings.js";
import { designLine } from "../terminal.js";
import { documentSizesFigure } from "./documentSizesFigure.js";
import { escapeHtml } from "./escapeHtml.js";
import { intervalForestFigure } from "./intervalForestFigure.js";
import { levelText, methodTable } from "./intervalTables.js";
import { type MethodRow, methodRows } from "./methodRows.js";
import { rateDistributionFigure } from "./rateDistributionFigure.js";

export interface ChecklistInput {
  readonly analysis: Analysis;
  readonly stats: DocumentStats;
  /** Prefix of the figures' ids, unique on the page. */
  readonly id: string;
  /** " — bm25 · hit5": what the figures' titles are about. */
  readonly what: string;
  readonly decimals: number;
  /** "results", or "paired queries" for a comparison. */
  readonly resultsName: string;
  /** data-* attributes naming the analysis (system, metric) on its tables. */
  readonly key: Readonly<Record<string, string>>;
  /** "covers 93.1% on the census" for a method a --census study scored, else null. */
  readonly coverage?: (estimand: string, method: string) => string | null;
  /** A sentence for the values section (a comparison's ties), when there is one. */
  readonly valuesNote?: string;
  /** The values are paired differences: documents at exactly 0 are ties, drawn apart. */
  readonly ties?: boolean;
}

const p = (text: string) => `<p>${escapeHtml(text)}</p>`;
const h = (text: string) => `<h3>${escapeHtml(text)}</h3>`;
const list = (advice: readonly Advice[]) =>
  advice.length === 0
    ? ""
    : `<ul class="advice">${advice.map((a) => `<li class="${a.severity}">${escapeHtml(a.message)}</li>`).join("")}</ul>`;

/** What was sampled, at which level, and with what fraction (SPEC §9's first item). */
function designSection(a: Analysis, resultsName: string): string {
  const d = a.design;
  const sampled =
    d.kind === "srs"
      ? d.population === null
        ? `${a.documents} documents, analysed as a simple random sample of documents from a population whose size M was not given: no finite-population correction (give --population M if the population is finite and known).`
        : `${a.documents} of the population's M = ${d.population} documents (sampling fraction ${percent(d.samplingFraction ?? 0, 1)}), a simple random sample without replacement; the variances of t, cr1, cr2, logit and logit-cv3 are multiplied by 1 − K/M = ${significant(d.fpc)} and the document bootstraps are rescaled to match (Rao–Wu); the contrasts wald-iid, wald-effective-n and chunk-bootstrap are left uncorrected.`
      : `${a.documents} documents under the declared ${d.kind} design; its interval is the recommended one, and its degrees of freedom follow the design.`;
  const warnings = lonelyPsuWarnings(d).map((w) => `<li class="warning">${escapeHtml(w)}</li>`);
  return [
    h("Design and population"),
    p(`Design: ${designLine(a)}.`),
    p(
      `Sampled: ${sampled} ${d.kind === "two-stage" ? "The first-stage units are the primary sampling units and documents are drawn inside them" : "The document is the sampling unit"}; the ${count(a.results)} ${resultsName} inside the documents are not independent draws.`,
    ),
    warnings.length > 0 ? `<ul class="advice">${warnings.join("")}</ul>` : "",
  ].join("\n");
}

/** Which estimand, the question it answers, and how micro and macro differ on these data. */
function estimandSection(a: Analysis, decimals: number, resultsName: string): string {
  const estimands = [a.micro, a.macro].filter((e): e is EstimandAnalysis => e !== null);
  const lines = estimands.map(
    (e) =>
      `<li><strong>${e.estimand}</strong> = ${escapeHtml(fixed(e.estimate, decimals))}: ${escapeHtml(e.question)}${e.estimand === "micro" ? ` (Σ s_d / Σ n_d: each of the ${resultsName} counts once)` : " (the mean of the document values r_d: each document counts once)"}.</li>`,
  );
  let relation = "";
  if (a.micro && a.macro) {
    const gap = a.micro.estimate - a.macro.estimate;
    // R − r̄ = Σ w_d (n_d − n̄_w)(r_d − r̄_w) / Σ w_d n_d exactly, with w_d the design weight
    // (1 under SRS, so Σ (n_d − n̄)(r_d − r̄) / N): the sign says how size and value go together.
    // Equal sizes give a gap of rounding error only (0.3 − 0.30000000000000004), not a sign.
    const weighted = a.design.kind !== "srs";
    const identity = weighted
      ? "Σ w_d (n_d − n̄_w)(r_d − r̄_w) / Σ w_d n_d, w_d the document's weight in the declared design"
      : "Σ (n_d − n̄)(r_d − r̄) / N";
    const where = weighted ? "weighted by the design" : "in this sample";
    relation =
      Math.abs(gap) <= 1e-12 * Math.max(1, Math.abs(a.macro.estimate))
        ? `Micro and macro are equal here: ${identity} = 0 ${where} (equal sizes, equal values, or sizes unrelated to values).`
        : `Micro is ${gap > 0 ? "above" : "below"} macro by ${fixed(Math.abs(gap), decimals)}: ${where}${weighted ? "," : ""} documents with more ${resultsName} have ${gap > 0 ? "higher" : "lower"} values (R − r̄ = ${identity}). Both are shown; a claim must say which one it is about.`;
  } else {
    relation = `Only ${estimands[0]?.estimand} is reported (declared with --estimand).`;
  }
  return [h("Estimand and why"), `<ul>${lines.join("")}</ul>`, p(relation)].join("\n");
}

function resamplingText(a: Analysis): string {
  const boot = [a.micro, a.macro]
    .flatMap((e) => (e ? [e.intervals["bootstrap-t"], e.intervals["bootstrap-percentile"]] : []))
    .filter((i): i is Interval => i !== undefined);
  const ran = boot.find((i) => i.resampling);
  if (!ran?.resampling) {
    const reason = boot.find((i) => !i.available);
    return reason && !reason.available
      ? `The document bootstrap was not run: ${reason.reason}.`
      : "No document bootstrap in this report.";
  }
  const degenerate = boot
    .map((i) => i.resampling?.degenerate ?? 0)
    .reduce((m, x) => Math.max(m, x), 0);
  return `Resampling unit: the document. The document bootstrap draws ${a.documents} documents with replacement, B = ${ran.resampling.replicates} replicates, seed ${ran.resampling.seed}; ${degenerate > 0 ? `up to ${percent(degenerate, 1)} of replicates were degenerate (every drawn document with the same value; bootstrap-t drops them)` : "no replicate was degenerate"}.`;
}

/** The recommended method per estimand, its ν, the resampling unit, every other interval. */
function methodSection(input: ChecklistInput): string {
  const a = input.analysis;
  const rows = methodRows(a);
  const nu = (r: MethodRow) =>
    r.interval.available && r.interval.df !== null
      ? ` with ν = ${r.interval.df === Math.round(r.interval.df) ? r.interval.df : r.interval.df.toFixed(2)}`
      : "";
  const recommended = rows
    .filter((r) => r.role === "recommended" || r.role === "withheld")
    .map((r) =>
      r.role === "withheld"
        ? `${r.estimand}: none (${r.method}${nu(r)} is shown first, not recommended; the reason follows)`
        : r.interval.available
          ? `${r.estimand}: ${r.method}${nu(r)}`
          : `${r.estimand}: ${r.method} (unavailable: ${r.interval.reason})`,
    );
  const dfNote =
    a.micro?.intervals[a.micro.recommended]?.available &&
    (a.micro.intervals[a.micro.recommended] as { df: number | null }).df !== null
      ? ` K = ${a.documents} and ν are separate: ν describes the approximation, it is not a count of documents.`
      : "";
  const advice = a.advice.filter(
    (x) => x.code !== "outside-inference" && x.code !== "rates-at-bounds",
  );
  return [
    h("Interval method, resampling unit and ν"),
    p(`Recommended: ${recommended.join("; ")}.${dfNote} ${resamplingText(a)}`),
    list(advice),
    intervalForestFigure({
      id: `${input.id}-intervals`,
      rows,
      levelText: levelText(a.level),
      decimals: input.decimals,
      what: input.what,
    }),
    methodTable(rows, input.decimals, input.key, input.coverage),
  ].join("\n");
}

/** ICC and DEFF, as diagnostics that explain the gap between the naive and the document interval. */
function diagnosticsSection(input: ChecklistInput): string {
  const a = input.analysis;
  const d = a.diagnostics;
  const icc = d.icc.available
    ? `ICC ${significant(d.icc.icc, 2)}`
    : `ICC unavailable (${d.icc.reason})`;
  const ratio =
    d.varianceRatio === null || d.varianceRatio === 0
      ? ""
      : ` The cr2 variance of micro is ${significant(d.varianceRatio)} times the variance that treats every result as independent (wald-iid).`;
  // The reading depends on the data: only a DEFF above 1 makes a per-result interval too narrow.
  const reading =
    d.designEffect.deff > 1
      ? `Clustered in documents, the ${count(a.results)} ${input.resultsName} carry about as much information as ${count(Math.round(d.designEffect.effectiveN))} independent ones: this is why a per-result interval is too narrow.`
      : `Here the clustering does not shrink the information (DEFF ${significant(d.designEffect.deff)} ≤ 1).`;
  const influence = (["micro", "macro"] as const)
    .filter((e) => a[e] !== null)
    .flatMap((e) => {
      const top = d.influence[e][0];
      if (!top) return [];
      return [
        top.change === 0
          ? `leaving out any one document leaves the ${e} estimate as it is`
          : `without document ${top.document} the ${e} estimate moves by ${signed(top.change, input.decimals)}`,
      ];
    });
  return [
    h("ICC and design effect (diagnostics)"),
    p(
      `${icc} · Kish DEFF ${significant(d.designEffect.deff)} · effective n ${count(Math.round(d.designEffect.effectiveN))} of ${count(a.results)} ${input.resultsName}.${ratio} ${reading} These are diagnostics, not a substitute for the document-level interval.`,
    ),
    influence.length > 0 ? p(`Influence (leave one document out): ${influence.join("; ")}.`) : "",
  ].join("\n");
}

/** The shares at exactly 0 and 1 and the distribution of r_d, with its figure. */
function ratesSection(input: ChecklistInput): string {
  const a = input.analysis;
  const atBounds = a.advice.filter((x) => x.code === "rates-at-bounds");
  return [
    h(
      a.binary
        ? "Documents at 0 and 1, and the distribution of rates"
        : "The distribution of document values",
    ),
    rateDistributionFigure({
      id: `${input.id}-rates`,
      stats: input.stats,
      analysis: a,
      what: input.what,
      decimals: input.decimals,
      ties: input.ties ?? false,
    }),
    list(atBounds),
    input.valuesNote ? p(input.valuesNote) : "",
  ].join("\n");
}

/**
 * The article's reporting checklist for one analysis, in its order: design and population,
 * estimand, K/N and the sizes, method with resampling unit and ν, ICC and DEFF, the shares at
 * 0 and 1 with the distribution of values, and what is outside the inference. Every sentence
 * is built from this analysis's values.
 */
export function analysisChecklist(input: ChecklistInput): string {
  const a = input.analysis;
  const outside = a.advice.filter((x) => x.code === "outside-inference");
  return [
    designSection(a, input.resultsName),
    estimandSection(a, input.decimals, input.resultsName),
    h(
      `K = ${a.documents} documents, N = ${count(a.results)} ${input.resultsName}, and their distribution`,
    ),
    documentSizesFigure({
      id: `${input.id}-sizes`,
      stats: input.stats,
      analysis: a,
      what: input.what,
      resultsName: input.resultsName,
    }),
    methodSection(input),
    diagnosticsSection(input),
    ratesSection(input),
    h("What is outside the inference"),
    list(outside),
  ].join("\n");
}
