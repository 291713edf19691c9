// `trec_eval -q` prints one line per measure and query: `measure <whitespace> qid <whitespace>
// value`, plus the same measures for qid `all` (the run's averages, left out here) and a
// `runid all <name>` line. TREC files carry no source document, so --doc-map gives query → doc.
// Checked against usnistgov/trec_eval meas_print_single.c ("%-22s\t%s\t%6.4f": four decimals)
// and m_runid.c (the runid line).
import { RagciError } from "../../core/errors.js";
import type { EvalContent, EvalFormat, EvalReadOptions, EvalRow, EvalRows } from "./evalRows.js";

const LINE = /^(\S+)\s+(\S+)\s+(\S+)\s*$/;

/** trec_eval's own line: measure, tab, query id, tab, value (its printf is "%-22s\t%s\t%6.4f"). */
const TAB_LINE = /^[A-Za-z_][\w.-]* *\t[^\t]+\t(-?\d+(\.\d+)?(e-?\d+)?|\S+)$/;

/**
 * Whether the first lines are all trec_eval lines with a numeric value (a runid line aside):
 * the summary (qid "all", runid) comes last, so it may lie beyond what is sniffed.
 */
function looksLikeTrecEval(text: string): boolean {
  const lines = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, 200);
  if (lines.length === 0) return false;
  return lines.every((l) => {
    if (!TAB_LINE.test(l)) return false;
    const [measure, , value] = l.split("\t");
    return measure?.trim() === "runid" || Number.isFinite(Number(value));
  });
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  if (content.kind !== "text")
    throw new RagciError("invalid-value", `${options.file}: not trec_eval text output`);
  const map = options.docMap;
  if (!map)
    throw new RagciError(
      "invalid-option",
      `${options.file}: trec_eval output has no source document; give --doc-map FILE (a CSV of query id and document id)`,
      { file: options.file },
    );
  let system = options.file.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
  const byQuery = new Map<string, Record<string, number | null>>();
  let lineNumber = 0;
  for (const line of content.text.split("\n")) {
    lineNumber++;
    if (line.trim() === "") continue;
    const m = LINE.exec(line);
    if (!m)
      throw new RagciError(
        "invalid-value",
        `${options.file} line ${lineNumber}: expected "measure query value"; is this trec_eval -q output?`,
        { file: options.file, row: lineNumber },
      );
    const [, measure, query, value] = m as unknown as [string, string, string, string];
    if (measure === "runid") {
      system = value;
      continue;
    }
    if (query === "all") continue;
    const number = Number(value);
    // Non-numeric measures (e.g. relstring) are not metrics.
    if (!Number.isFinite(number)) continue;
    const metrics = byQuery.get(query) ?? {};
    metrics[measure] = number;
    byQuery.set(query, metrics);
  }
  const rows: EvalRow[] = [...byQuery.entries()].map(([query, metrics]) => ({
    query,
    doc: map.get(query) ?? null,
    system,
    metrics,
  }));
  return {
    rows,
    notes: [
      `trec_eval: per-query measures (the "all" averages left out; trec_eval prints four decimals), system ${system}, documents from --doc-map`,
    ],
  };
}

export const trecEvalFormat: EvalFormat = {
  name: "trec_eval",
  detect: (content) => content.kind === "text" && looksLikeTrecEval(content.text),
  toRows,
};
