// A TREC run (the input of trec_eval, not its output): one line per retrieved document,
// `qid Q0 docno rank score tag`, whitespace-separated (usnistgov/trec_eval get_trec_results.c:
// the second and fourth fields are ignored, fields after the sixth too; ranks come from the
// scores). ragci scores it against --qrels itself, with trec_eval 10.0's measures
// (src/ingest/trecRun/trecMeasures.ts), and --doc-map gives each query's document.
import { createHash } from "node:crypto";
import { optionRef, RagciError } from "../../core/errors.js";
import type { Retrieved } from "../trecRun/rankedGrades.js";
import { runInputs, scoreRun } from "../trecRun/scoreRun.js";
import type { EvalContent, EvalFormat, EvalReadOptions, EvalRows } from "./evalRows.js";

/** A score as strtod reads a decimal number (trec_eval reads it with atof). */
const SCORE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const RANK = /^\d+$/;

/** A run's lines: its tag, and each query's retrieved documents in the file's order. */
interface Run {
  readonly tag: string;
  readonly byQuery: ReadonlyMap<string, Retrieved[]>;
}

/** The fields of a run line; null for a blank or comment line (trec_eval skips both). */
function fieldsOf(line: string): string[] | null {
  const trimmed = line.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return null;
  return trimmed.split(/\s+/);
}

/** trec_eval ignores the second field; runs write Q0 (or 0) there. */
const Q0 = /^q?0$/i;

/**
 * Whether a line has a run line's shape: a whole rank in the fourth field and either Q0 in the
 * second or a number in the fifth of six. A line with a bad score or a missing tag keeps the
 * shape, so the reader can name that line rather than fail to recognise the file.
 */
function runShaped(fields: readonly string[]): boolean {
  if (fields.length < 5 || !RANK.test(fields[3] as string)) return false;
  return Q0.test(fields[1] as string) || (fields.length >= 6 && SCORE.test(fields[4] as string));
}

/** Whether most of the first 200 lines (blank and comment lines aside) have a run line's shape. */
function looksLikeTrecRun(text: string): boolean {
  const lines = text
    .split("\n")
    .map(fieldsOf)
    .filter((f): f is string[] => f !== null)
    .slice(0, 200);
  const shaped = lines.filter(runShaped).length;
  return shaped > 0 && 2 * shaped >= lines.length;
}

/** What the reader cannot take in a line's fields (parseRun's checks), or null. */
function lineProblem(fields: readonly string[]): string | null {
  if (fields.length < 6)
    return `a TREC run line has 6 fields (query Q0 document rank score tag), this one ${fields.length}`;
  const score = fields[4] as string;
  if (!SCORE.test(score))
    return `score ${score} is not a number; the fifth field of a TREC run line is the score`;
  return null;
}

/**
 * For a text file named a TREC run (--format trec-run) that does not look like one: its first
 * line the reader cannot take, and why; null when every line can be read (then it is read).
 */
export function trecRunMisfit(text: string, file: string): RagciError | null {
  let lineNumber = 0;
  for (const raw of text.split("\n")) {
    lineNumber++;
    const fields = fieldsOf(raw);
    const problem = fields === null ? null : lineProblem(fields);
    if (problem !== null)
      return new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: ${problem}; check ${optionRef("format")} (or leave it out to detect the tool)`,
        { file, row: lineNumber },
      );
  }
  return null;
}

/** @returns null when the file has no run line */
function parseRun(text: string, file: string): Run | null {
  const byQuery = new Map<string, Retrieved[]>();
  let tag: string | null = null;
  let lineNumber = 0;
  for (const raw of text.split("\n")) {
    lineNumber++;
    const fields = fieldsOf(raw);
    if (fields === null) continue;
    const problem = lineProblem(fields);
    if (problem !== null)
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: ${problem}${fields.length < 6 ? "; give the run unchanged" : ""}`,
        { file, row: lineNumber },
      );
    const [query, , docno, , , lineTag] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (tag === null) tag = lineTag;
    else if (lineTag !== tag)
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: run tag ${lineTag} differs from ${tag} on the first line; give one run per file (split it by its sixth field)`,
        { file, row: lineNumber },
      );
    let list = byQuery.get(query);
    if (list === undefined) {
      list = [];
      byQuery.set(query, list);
    }
    list.push({ docno, score: Number(fields[4]) });
  }
  return tag === null ? null : { tag, byQuery };
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  if (content.kind !== "text")
    throw new RagciError("invalid-value", `${file}: not a TREC run (text lines)`, { file });
  runInputs(options);
  const run = parseRun(content.text, file);
  if (run === null)
    throw new RagciError("empty-input", `${file}: no line of a TREC run; check the file`, { file });
  return scoreRun(
    { name: run.tag, byQuery: run.byQuery },
    options,
    {
      key: createHash("sha256").update(content.text).digest("hex"),
      label: file.replace(/^.*[\\/]/, ""),
    },
    "TREC run",
  );
}

export const trecRunFormat: EvalFormat = {
  name: "trec_run",
  detect: (content) => content.kind === "text" && looksLikeTrecRun(content.text),
  toRows,
};
