// A TREC run (the input of trec_eval, not its output): one line per retrieved document,
// `qid Q0 docno rank score tag`, whitespace-separated (usnistgov/trec_eval get_trec_results.c:
// the second and fourth fields are ignored, fields after the sixth too; ranks come from the
// scores). ragci scores it against --qrels itself, with trec_eval 10.0's measures
// (src/ingest/trecRun/trecMeasures.ts), and --doc-map gives each query's document.
import { createHash } from "node:crypto";
import { optionRef, RagciError } from "../../core/errors.js";
import { askedCutoffs } from "../trecRun/askedCutoffs.js";
import { gradeLevels } from "../trecRun/gradeLevels.js";
import { type Retrieved, rankedGrades } from "../trecRun/rankedGrades.js";
import type { Qrels } from "../trecRun/readQrels.js";
import { runNotes } from "../trecRun/runNotes.js";
import { trecMeasures } from "../trecRun/trecMeasures.js";
import type { EvalContent, EvalFormat, EvalReadOptions, EvalRow, EvalRows } from "./evalRows.js";

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

/** Whether the first lines are all `qid Q0 docno rank score tag` (more fields ignored), with a whole rank. */
function looksLikeTrecRun(text: string): boolean {
  const lines = text
    .split("\n")
    .map(fieldsOf)
    .filter((f): f is string[] => f !== null)
    .slice(0, 200);
  return (
    lines.length > 0 &&
    lines.every((f) => f.length >= 6 && RANK.test(f[3] as string) && SCORE.test(f[4] as string))
  );
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
    if (fields.length < 6)
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: a TREC run line has 6 fields (query Q0 document rank score tag), this one ${fields.length}; give the run unchanged`,
        { file, row: lineNumber },
      );
    const [query, , docno, , score, lineTag] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (!SCORE.test(score))
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: score ${score} is not a number; the fifth field of a TREC run line is the score`,
        { file, row: lineNumber },
      );
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
    list.push({ docno, score: Number(score) });
  }
  return tag === null ? null : { tag, byQuery };
}

/**
 * What scoring a run needs besides the run: --qrels and --doc-map.
 *
 * @throws RagciError naming the flag to give
 */
export function runInputs(options: EvalReadOptions): {
  qrels: Qrels;
  docMap: ReadonlyMap<string, string>;
} {
  const file = options.file;
  const qrels = options.qrels;
  if (!qrels)
    throw new RagciError(
      "invalid-option",
      `${file}: a TREC run is scored against relevance judgements; give ${optionRef("qrels")} FILE (TREC qrels: query iteration document grade)`,
      { file },
    );
  const map = options.docMap;
  if (!map)
    throw new RagciError(
      "invalid-option",
      `${file}: a TREC run has no source document; give ${optionRef("docMap")} FILE (a CSV of query id and document id)`,
      { file },
    );
  return { qrels, docMap: map };
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  if (content.kind !== "text")
    throw new RagciError("invalid-value", `${file}: not a TREC run (text lines)`, { file });
  const { qrels, docMap: map } = runInputs(options);
  const run = parseRun(content.text, file);
  if (run === null)
    throw new RagciError("empty-input", `${file}: no line of a TREC run; check the file`, { file });
  const { byQuery, tag: name } = run;
  const complete = options.completeQueries === true;
  const cutoffs = askedCutoffs(options.metrics);
  const rows: EvalRow[] = [];
  const unretrieved: string[] = [];
  /** Scored queries whose judgements have no grade ≥ 1. */
  const noRelevant: string[] = [];
  for (const [query, judgements] of qrels.queries) {
    const retrieved = byQuery.get(query);
    if (retrieved === undefined) {
      unretrieved.push(query);
      if (!complete) continue;
    }
    const ranked = rankedGrades(retrieved ?? [], judgements);
    if ("duplicate" in ranked)
      throw new RagciError(
        "invalid-value",
        `${file}: document ${ranked.duplicate} is retrieved twice for query ${query}; trec_eval refuses such a run (duplicate docs), keep one line per query and document`,
        { file },
      );
    const levels = gradeLevels(judgements);
    if (levels.length < 2) noRelevant.push(query);
    rows.push({
      query,
      doc: map.get(query) ?? null,
      system: name,
      metrics: trecMeasures(ranked.grades, levels, cutoffs),
    });
  }
  const notes = runNotes({
    name,
    qrelsFile: qrels.file,
    scored: rows.length,
    unjudged: [...byQuery.keys()].filter((q) => !qrels.queries.has(q)),
    unretrieved,
    noRelevant,
    complete,
  });
  if (rows.length === 0)
    throw new RagciError(
      "empty-input",
      `${file}: no query of the run is in ${qrels.file}; check that the run and the qrels are of the same queries`,
      { file },
    );
  return {
    rows,
    notes,
    run: {
      key: createHash("sha256").update(content.text).digest("hex"),
      label: file.replace(/^.*[\\/]/, ""),
    },
  };
}

export const trecRunFormat: EvalFormat = {
  name: "trec_run",
  detect: (content) => content.kind === "text" && looksLikeTrecRun(content.text),
  toRows,
};
