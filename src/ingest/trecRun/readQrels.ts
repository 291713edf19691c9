import { readFile } from "node:fs/promises";
import { optionRef, RagciError } from "../../core/errors.js";

/**
 * TREC relevance judgements (qrels): `qid iter docno rel` per line, whitespace-separated, the
 * iteration ignored, the grade an integer (trec_eval's get_qrels.c reads it with atol). Grades
 * ≥ 1 are relevant (trec_eval's default -l 1), 0 is judged non-relevant, and a negative grade
 * is "in the pool but unjudged" (form_res_rels.c: RELVALUE_UNJUDGED).
 */
export interface Qrels {
  /** Shown in messages and notes. */
  readonly file: string;
  /** Each query's judgements, docno → grade, in the file's order of queries. */
  readonly queries: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

const GRADE = /^[+-]?\d+$/;

/**
 * Reads a qrels file (or a pipe: it is read once). Lines starting with `#` are skipped, as
 * trec_eval skips them; blank lines too (trec_eval calls them malformed).
 *
 * @throws RagciError for a line without four fields, a grade that is not an integer, a document
 *   judged twice for one query (trec_eval stops on it: "duplicate docs"), or no judgement
 */
export async function readQrels(path: string, file: string): Promise<Qrels> {
  let text: string;
  try {
    text = (await readFile(path)).toString("utf8").replace(/^\uFEFF/, "");
  } catch {
    throw new RagciError(
      "unreadable-input",
      `${file}: cannot read the qrels file; check ${optionRef("qrels")}`,
      {
        file,
      },
    );
  }
  const queries = new Map<string, Map<string, number>>();
  let lineNumber = 0;
  for (const raw of text.split("\n")) {
    lineNumber++;
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    if (fields.length !== 4)
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: a qrels line has 4 fields (query iteration document grade), this one ${fields.length}; give TREC qrels with ${optionRef("qrels")}`,
        { file, row: lineNumber },
      );
    const [query, , docno, grade] = fields as [string, string, string, string];
    if (!GRADE.test(grade))
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: grade ${grade} is not an integer; qrels grades are integers (≥ 1 relevant, 0 not relevant)`,
        { file, row: lineNumber },
      );
    let judged = queries.get(query);
    if (judged === undefined) {
      judged = new Map();
      queries.set(query, judged);
    }
    if (judged.has(docno))
      throw new RagciError(
        "invalid-value",
        `${file} line ${lineNumber}: document ${docno} is judged twice for query ${query}; trec_eval refuses this too (duplicate docs), keep one judgement`,
        { file, row: lineNumber },
      );
    judged.set(docno, Number.parseInt(grade, 10));
  }
  if (queries.size === 0)
    throw new RagciError(
      "empty-input",
      `${file}: no judgement in the qrels file; check ${optionRef("qrels")}`,
      {
        file,
      },
    );
  return { file, queries };
}
