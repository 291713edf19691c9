// A TREC run (the input of trec_eval, not its output): one line per retrieved document,
// `qid Q0 docno rank score tag`, whitespace-separated (usnistgov/trec_eval get_trec_results.c:
// the second and fourth fields are ignored, fields after the sixth too; ranks come from the
// scores). ragci scores it against --qrels itself, with trec_eval 10.0's measures
// (src/ingest/trecRun/trecMeasures.ts), and --doc-map gives each query's document.
import { createHash } from "node:crypto";
import { RagciError } from "../../core/errors.js";
import { askedCutoffs } from "../trecRun/askedCutoffs.js";
import { type Retrieved, rankedGrades } from "../trecRun/rankedGrades.js";
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

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  if (content.kind !== "text")
    throw new RagciError("invalid-value", `${file}: not a TREC run (text lines)`, { file });
  const qrels = options.qrels;
  if (!qrels)
    throw new RagciError(
      "invalid-option",
      `${file}: a TREC run is scored against relevance judgements; give --qrels FILE (TREC qrels: query iteration document grade)`,
      { file },
    );
  const map = options.docMap;
  if (!map)
    throw new RagciError(
      "invalid-option",
      `${file}: a TREC run has no source document; give --doc-map FILE (a CSV of query id and document id)`,
      { file },
    );
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
    const levels: number[] = [];
    for (const grade of judgements.values())
      if (grade >= 0) levels[grade] = (levels[grade] ?? 0) + 1;
    for (let g = 0; g < levels.length; g++) levels[g] = levels[g] ?? 0;
    if (levels.length < 2) noRelevant.push(query);
    rows.push({
      query,
      doc: map.get(query) ?? null,
      system: name,
      metrics: trecMeasures(ranked.grades, levels, cutoffs),
    });
  }
  const unjudged = [...byQuery.keys()].filter((q) => !qrels.queries.has(q));
  const notes = [
    `TREC run ${name}: ${plural(rows.length, "query", "queries")} scored against ${qrels.file} by ragci with trec_eval 10.0's measures (ties in score broken by document id, descending); documents from --doc-map`,
  ];
  if (unjudged.length > 0)
    notes.push(
      `TREC run ${name}: ${plural(unjudged.length, "query", "queries")} of the run not in ${qrels.file} left out, as trec_eval does (first: ${unjudged[0]})`,
    );
  if (unretrieved.length > 0)
    notes.push(
      complete
        ? `TREC run ${name}: ${plural(unretrieved.length, "query", "queries")} of ${qrels.file} not in the run scored as empty rankings (--complete-queries, trec_eval -c; first: ${unretrieved[0]})`
        : `TREC run ${name}: ${plural(unretrieved.length, "query", "queries")} of ${qrels.file} not in the run left out, as trec_eval's help for -c says (trec_eval 10.0 itself stops on them; first: ${unretrieved[0]}); --complete-queries scores them as empty rankings, as trec_eval -c`,
    );
  if (noRelevant.length > 0)
    notes.push(
      `TREC run ${name}: ${plural(noRelevant.length, "scored query has", "scored queries have")} no relevant document in ${qrels.file} (first: ${noRelevant[0]}); they score 0 on every measure, as in trec_eval`,
    );
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
