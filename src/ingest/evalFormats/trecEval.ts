// `trec_eval -q` prints one line per measure and query, `measure<TAB>qid<TAB>value`, then the
// run's summary under qid `all` (left out here) with a `runid all <name>` line. The value's
// shape depends on the measure (usnistgov/trec_eval, v10.0):
// - scores: "%-22s\t%s\t%6.4f" (meas_print_single.c te_print_single_meas_s_double / a_cut):
//   four decimals, e.g. `P_5`, `ndcg_cut_10`, `iprec_at_recall_0.00`, `11pt_avg`, `utility`
//   (which may be negative), and nan / inf where a measure divides by zero;
// - counts: "%ld" (te_print_single_meas_s_long): `num_ret`, `num_rel`, `num_rel_ret`,
//   `num_nonrel_judged_ret`, the prefs counts; kept as metrics, analysed only when named;
// - `relstring`: "'%s'" (m_relstring.c), the judgments of the top documents as characters —
//   not a number, so left out with a note;
// - `runid`, `num_q`, `gm_map`, `gm_bpref`: summary only (m_runid.c, m_num_q.c, m_gm_*.c).
// TREC files carry no source document, so --doc-map gives query → doc.
import { optionRef, RagciError } from "../../core/errors.js";
import type { EvalContent, EvalFormat, EvalReadOptions, EvalRow, EvalRows } from "./evalRows.js";

/** A measure's name: letters, digits, `_`, `.` (e.g. `Rprec_mult_0.20`), `11pt_avg`; `Z` with -Z. */
const MEASURE = /^(?:[A-Za-z]|\d+pt_)[\w.-]*$/;
/** "%6.4f" (scores) or "%ld" (counts). */
const NUMBER = /^-?\d+(?:\.\d+)?$/;
/** How printf writes a score that is not finite. */
const NOT_FINITE = /^-?(?:nan|inf)$/i;
/** relstring's quoted characters (digits, `-` unjudged, `.`, `<`, `>`). */
const QUOTED = /^'[^'\t]*'$/;
/** The qid under which trec_eval prints the run's averages. */
const SUMMARY = "all";

interface TrecLine {
  readonly measure: string;
  readonly query: string;
  readonly value: string;
}

/** One line as trec_eval prints it, or null when it is not one. */
function parseLine(line: string): TrecLine | null {
  const fields = line.split("\t");
  if (fields.length !== 3) return null;
  const [measure, query, value] = fields.map((f) => f.trim()) as [string, string, string];
  if (!MEASURE.test(measure) || query === "" || /\s/.test(query) || value === "") return null;
  // Only runid's value is free text (the run's name); every other value is printed by a format.
  if (measure !== "runid" && !NUMBER.test(value) && !NOT_FINITE.test(value) && !QUOTED.test(value))
    return null;
  return { measure, query, value };
}

/**
 * Whether the first lines are all trec_eval lines: the summary (qid "all", runid) comes last,
 * so it may lie beyond what is sniffed.
 */
function looksLikeTrecEval(text: string): boolean {
  const lines = text
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "")
    .slice(0, 200);
  return lines.length > 0 && lines.every((l) => parseLine(l) !== null);
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  if (content.kind !== "text")
    throw new RagciError("invalid-value", `${file}: not trec_eval text output`, { file });
  const map = options.docMap;
  if (!map)
    throw new RagciError(
      "invalid-option",
      `${file}: trec_eval output has no source document; give ${optionRef("docMap")} FILE (a CSV of query id and document id)`,
      { file },
    );
  let system: string | null = null;
  const byQuery = new Map<string, Record<string, number | null>>();
  /** Where each (query, measure) was read, to refuse a second line for it. */
  const seen = new Map<string, number>();
  const strings = new Set<string>();
  const counts = new Set<string>();
  const scores = new Set<string>();
  /** Measures printed under qid all; those without per-query lines are num_q, gm_map, gm_bpref. */
  const summaryOnly = new Set<string>();
  let summaryLines = 0;
  let lineNumber = 0;
  for (const raw of content.text.split("\n")) {
    lineNumber++;
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") continue;
    const parsed = parseLine(line);
    if (!parsed)
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: not a trec_eval line ("measure<TAB>query<TAB>value"); give the output of trec_eval -q unchanged`,
        { file, row: lineNumber },
      );
    const { measure, query, value } = parsed;
    const key = JSON.stringify([query, measure]);
    const first = seen.get(key);
    if (first !== undefined)
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: ${measure} of query ${query} again (first on line ${first}); give each trec_eval run's output as its own file`,
        { file, row: lineNumber },
      );
    seen.set(key, lineNumber);
    if (measure === "runid") {
      system = value;
      continue;
    }
    if (query === SUMMARY) {
      summaryLines++;
      summaryOnly.add(measure);
      continue;
    }
    if (QUOTED.test(value)) {
      strings.add(measure);
      continue;
    }
    const metrics = byQuery.get(query) ?? {};
    // printf's nan/inf: the query has no number for this measure.
    metrics[measure] = NUMBER.test(value) ? Number(value) : null;
    byQuery.set(query, metrics);
    // "%ld" has no decimal point, "%6.4f" always has one.
    if (NUMBER.test(value)) (value.includes(".") ? scores : counts).add(measure);
  }
  if (byQuery.size === 0)
    throw new RagciError(
      "invalid-value",
      summaryLines > 0 && strings.size === 0
        ? `${file}: has only the run's averages (qid all): run trec_eval with -q to print per-query values`
        : `${file}: no numeric per-query measure (${[...strings].join(", ") || "no measure"} is not a number); run trec_eval -q with a numeric measure (e.g. -m all_trec)`,
      { file },
    );
  const name = system ?? file.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
  const rows: EvalRow[] = [...byQuery.entries()].map(([query, metrics]) => ({
    query,
    doc: map.get(query) ?? null,
    system: name,
    metrics,
  }));
  const notes = [
    `trec_eval: per-query measures of run ${name}${system === null ? " (no runid line: named after the file)" : ""} as printed (scores to four decimals), the qid "all" averages left out; documents from ${optionRef("docMap")}`,
  ];
  if (strings.size > 0)
    notes.push(
      `trec_eval: ${[...strings].join(", ")} left out (a string of judgments, not a number)`,
    );
  const unprinted = [...map.keys()].filter((q) => !byQuery.has(q));
  if (unprinted.length > 0)
    notes.push(
      `trec_eval: ${unprinted.length} ${unprinted.length === 1 ? "query" : "queries"} of ${optionRef("docMap")} not in ${file} (first: ${unprinted[0]}); trec_eval prints only the queries of its qrels`,
    );
  const metricNotes = Object.fromEntries(
    [...counts]
      .filter((m) => !scores.has(m))
      .map((m) => [m, `trec_eval: ${m} is a count per query (printed as an integer), not a score`]),
  );
  const printed = new Set(rows.flatMap((r) => Object.keys(r.metrics)));
  const notMetrics = Object.fromEntries([
    ...[...summaryOnly]
      .filter((m) => !printed.has(m))
      .map((m) => [
        m,
        `${m} has only the run's average (qid all), no per-query value; name a per-query measure`,
      ]),
    ...[...strings].map((m) => [
      m,
      `${m} is a string of judgments per query, not a number; name a numeric measure`,
    ]),
  ]);
  return { rows, notes, metricNotes, notMetrics };
}

export const trecEvalFormat: EvalFormat = {
  name: "trec_eval",
  detect: (content) => content.kind === "text" && looksLikeTrecEval(content.text),
  toRows,
};
