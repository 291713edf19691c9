import type { GateCheck, GateDecision, GateVerdict } from "../core/gate.js";
import { decimalsFor, degreesOfFreedom, levelPercent, pValue, signed } from "./format.js";
import { blocksToMarkdown, type ReportBlock } from "./reportBlocks.js";

const VERDICT_TEXT: Readonly<Record<GateVerdict, string>> = {
  worse: "FAIL: worse beyond the margin",
  "not-worse": "pass: not shown worse",
  noninferior: "pass: shown noninferior",
  "not-noninferior": "FAIL: not shown noninferior",
  untested: "no interval",
  inconclusive: "inconclusive: no interval recommended",
};

/**
 * A pass with inconclusive checks says so in its headline: nothing was shown worse, but for
 * those no interval is recommended, so nothing was shown either way.
 */
function inconclusiveText(decision: GateDecision): string {
  const names = decision.checks
    .filter((c) => c.verdict === "inconclusive")
    .map((c) => checkName(c, decision));
  if (names.length === 0) return "";
  return `; ${names.join(", ")} ${names.length === 1 ? "is" : "are"} inconclusive (no interval recommended, so nothing is shown either way)`;
}

/** "FAIL: …" or "pass: …" for a check, as the build reads it. */
export function gateVerdictText(check: GateCheck): string {
  if (check.verdict === "untested") return check.fails ? "FAIL: no interval" : "no interval";
  if (check.verdict === "inconclusive")
    return `${check.fails ? "FAIL: " : ""}inconclusive: no interval recommended (${check.recommendationWithheld?.reason ?? "withheld"})`;
  return VERDICT_TEXT[check.verdict];
}

/** The rule in words, with its margin: "fail if worse by more than 0.02 (micro)". */
export function gateRuleText(decision: GateDecision): string {
  const d = String(decision.margin);
  return decision.rule === "fail-if-worse"
    ? `fail if a candidate is worse than the baseline by more than ${d} (${decision.estimand})`
    : `fail unless every candidate is shown worse than the baseline by less than ${d} (${decision.estimand})`;
}

/** −d, or 0 for no margin. */
function negativeMargin(decision: GateDecision): string {
  return decision.margin === 0 ? "0" : `−${decision.margin}`;
}

/** How the several checks were combined, for the reader of the summary. */
export function gateMultiplicityText(decision: GateDecision): string {
  const m = decision.checks.length;
  const oneSided = levelPercent(decision.alpha, 1);
  const below = negativeMargin(decision);
  const flipped = decision.checks.some((c) => c.lowerIsBetter)
    ? " (for a metric where lower is better, read the interval of baseline − candidate)"
    : "";
  if (decision.rule === "fail-if-worse") {
    return m === 1
      ? `One check: it fails when the ${levelPercent(decision.level)} interval lies entirely below ${below}${flipped} (one-sided ${oneSided}).`
      : `${m} checks (metrics × candidates), Holm-adjusted one-sided p-values: a check fails when its adjusted p < ${oneSided}, so the chance that noise alone fails the build stays ≤ ${oneSided}; alone, a check fails when its ${levelPercent(decision.level)} interval lies entirely below ${below}${flipped}.`;
  }
  return `${m === 1 ? "One check" : `${m} checks (metrics × candidates)`}: each passes when its ${levelPercent(decision.level)} interval's lower bound is above ${below}${flipped}; the build passes only when every check does (an intersection–union test: no adjustment is needed, the chance of passing a candidate that is worse by the margin stays ≤ ${oneSided}).`;
}

function intervalText(check: GateCheck): { estimate: string; interval: string; nu: string } {
  const t = check.test;
  if (!t) return { estimate: "", interval: "no interval", nu: "" };
  const decimals = Math.max(3, decimalsFor(t.upper - t.lower));
  return {
    estimate: signed(t.estimate, decimals),
    interval: `[${signed(t.lower, decimals)}, ${signed(t.upper, decimals)}]`,
    nu: degreesOfFreedom(t.df),
  };
}

/** What each check compares: the metric alone, or the metric and the candidate when several. */
function checkName(check: GateCheck, decision: GateDecision): string {
  const candidates = new Set(decision.checks.map((c) => c.candidate));
  const orientation = check.lowerIsBetter ? " (lower is better)" : "";
  return candidates.size > 1
    ? `${check.metric} · ${check.candidate}${orientation}`
    : `${check.metric}${orientation}`;
}

/**
 * The gate as report blocks: the outcome, a table (metric, difference, interval, K, ν, p,
 * verdict) and how multiplicity was handled — for the step summary, --markdown and the terminal.
 */
export function gateBlocks(decision: GateDecision, markdown: boolean): ReportBlock[] {
  const strong = (text: string) => (markdown ? `**${text}**` : text);
  const first = decision.checks[0];
  const pair = first ? `${first.candidate} − ${first.baseline}` : "candidate − baseline";
  const candidates = [...new Set(decision.checks.map((c) => c.candidate))];
  const difference = candidates.length > 1 ? `candidate − ${first?.baseline}` : pair;
  const pHeader =
    decision.rule === "fail-if-worse" && decision.checks.length > 1 ? "p (Holm)" : "p";
  const rows: string[][] = [
    [
      "metric",
      difference,
      `${levelPercent(decision.level)} interval`,
      "K",
      "ν",
      pHeader,
      "verdict",
    ],
    ...decision.checks.map((c) => {
      const shown = intervalText(c);
      return [
        checkName(c, decision),
        shown.estimate,
        shown.interval,
        String(c.documents),
        shown.nu,
        c.adjustedP === null ? "" : pValue(c.adjustedP),
        gateVerdictText(c),
      ];
    }),
  ];
  const failing = decision.checks.filter((c) => c.fails).map((c) => checkName(c, decision));
  const outcome = decision.failed
    ? `${strong("FAIL")} — ${failing.join(", ")}: ${decision.rule === "fail-if-worse" ? "worse than the baseline beyond the margin" : "not shown noninferior to the baseline"}.`
    : `${strong("pass")} — ${decision.rule === "fail-if-worse" ? "no candidate is shown worse than the baseline beyond the margin" : "every candidate is shown noninferior to the baseline"}${inconclusiveText(decision)}.`;
  return [
    { kind: "heading", text: `ragci gate · ${gateRuleText(decision)}` },
    { kind: "text", text: outcome },
    { kind: "table", rows, align: ["l", "r", "l", "r", "r", "r", "l"] },
    {
      kind: "bullets",
      items: [
        gateMultiplicityText(decision),
        `Differences are candidate − baseline in the metric's units (the margin's units), on the recommended interval of the ${decision.estimand} estimand, with the document as the sampling unit.`,
      ],
    },
  ];
}

/** Percent-encoding of a workflow command's message (GitHub's toolkit, core/src/command.ts). */
export function escapeCommandData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A property value also encodes ":" and "," (they delimit the properties). */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * One workflow command per check (GitHub Actions annotations): `::error` for a check that fails
 * the build, `::warning` for one that could not be decided, `::notice` for one that passes;
 * the title names the metric (and the candidate). Returns the lines, each ending in "\n".
 */
export function gateAnnotations(decision: GateDecision): string {
  return decision.checks
    .map((c) => {
      const command = c.fails
        ? "error"
        : c.verdict === "untested" || c.verdict === "inconclusive"
          ? "warning"
          : "notice";
      const shown = intervalText(c);
      const stats = c.test
        ? `${c.candidate} − ${c.baseline} = ${shown.estimate} ${shown.interval} (${decision.estimand} ${c.test.method}, ${levelPercent(decision.level)}, K = ${c.documents}, ν = ${shown.nu}${c.adjustedP === null ? "" : `, ${decision.rule === "fail-if-worse" && decision.checks.length > 1 ? "Holm " : ""}p = ${pValue(c.adjustedP)}`})`
        : `${c.candidate} − ${c.baseline}: no interval with an se and ν`;
      const title = `ragci gate: ${c.metric}${c.lowerIsBetter ? " (lower is better)" : ""} · ${c.candidate} vs ${c.baseline}`;
      const message = `${gateVerdictText(c)} — ${stats}; rule: ${gateRuleText(decision)}`;
      return `::${command} title=${escapeCommandProperty(title)}::${escapeCommandData(message)}\n`;
    })
    .join("");
}

/** The gate's section of a GitHub step summary (GITHUB_STEP_SUMMARY): Markdown, appended. */
export function gateStepSummary(decision: GateDecision): string {
  return `${blocksToMarkdown(gateBlocks(decision, true))}\n`;
}
