import { optionRef, RagciError } from "../../core/errors.js";
import { type EvalContent, isJsonObject, type JsonObject } from "../evalFormats/evalRows.js";
import { duplicateJsonKey } from "./duplicateJsonKeys.js";
import type { Retrieved } from "./rankedGrades.js";
import type { Run } from "./scoreRun.js";

/*
 * The shapes of a run as JSON that ragci reads, as the Python tools hold runs:
 * - "scores by query": one JSON object `{query: {document: score}}`, the run dict of
 *   pytrec_eval (RelevanceEvaluator.evaluate(run), cvangysel/pytrec_eval examples/simple.py)
 *   and of ranx, which writes it as JSON (Run.save(path, kind="json"), Run.from_file;
 *   AmenRa/ranx ranx/data_structures/run.py);
 * - "list by query": one record per query, `{"q_id": …, "doc_ids": [...], "scores": [...]}`,
 *   the arguments of ranx's Run.add(q_id, doc_ids, scores), also named qid/query_id and
 *   docs/docids/docnos; without scores the list is the ranking;
 * - "score by document": one record per retrieved document, `{"query_id", "doc_id", "score"}`,
 *   ir_datasets' GenericScoredDoc (ir_datasets/formats/base.py), ir_measures' ScoredDoc, and the
 *   default columns of ranx's Run.from_df (q_id, doc_id, score).
 * Records come as JSON lines (run-jsonl) or as one JSON array (run-json).
 */
const QUERY_KEYS = ["q_id", "qid", "query_id"];
const LIST_KEYS = ["doc_ids", "docs", "docids", "docnos"];
const DOC_KEYS = ["doc_id", "docid", "docno"];
const SCORES_KEY = "scores";
const SCORE_KEY = "score";

export type JsonRunShape = "scores by query" | "list by query" | "score by document";

/** The one key of `keys` the record has; null for none or several. */
function oneOf(record: JsonObject, keys: readonly string[]): string | null {
  const present = keys.filter((k) => k in record);
  return present.length === 1 ? (present[0] as string) : null;
}

/** A record's shape when it has a query id, documents and nothing else; else null. */
function recordShape(record: unknown): JsonRunShape | null {
  if (!isJsonObject(record)) return null;
  const query = oneOf(record, QUERY_KEYS);
  if (query === null) return null;
  const list = oneOf(record, LIST_KEYS);
  const doc = oneOf(record, DOC_KEYS);
  const names = Object.keys(record);
  if (list !== null && doc === null && Array.isArray(record[list])) {
    const allowed = [query, list, SCORES_KEY];
    return names.every((n) => allowed.includes(n)) ? "list by query" : null;
  }
  if (doc !== null && list === null && typeof record[SCORE_KEY] === "number") {
    const allowed = [query, doc, SCORE_KEY];
    return names.length === 3 && names.every((n) => allowed.includes(n))
      ? "score by document"
      : null;
  }
  return null;
}

/** Whether `value` is `{query: {document: score}}` with at least one document. */
function isScoresByQuery(value: unknown): value is Record<string, Record<string, unknown>> {
  if (!isJsonObject(value)) return false;
  const queries = Object.values(value);
  return (
    queries.length > 0 &&
    queries.every(isJsonObject) &&
    queries.some((q) => Object.keys(q).length > 0) &&
    queries.every((q) => Object.values(q).every((s) => typeof s === "number"))
  );
}

/** The records of a run's JSON content and their shape; null when it is not a run. */
export function jsonRunRecords(
  content: EvalContent,
): { shape: JsonRunShape; records: readonly unknown[] } | null {
  let records: readonly unknown[];
  if (content.kind === "jsonl") records = content.values;
  else if (content.kind !== "json") return null;
  else if (isScoresByQuery(content.value)) return { shape: "scores by query", records: [] };
  else if (Array.isArray(content.value)) records = content.value;
  else records = [content.value];
  const shape = recordShape(records[0]);
  if (shape === null || records.length === 0) return null;
  return records.every((r) => recordShape(r) === shape) ? { shape, records } : null;
}

/** An id as the JSON gives it: a string, or a number as JSON writes it. */
function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * A run's documents by query from its JSON content (jsonRunRecords' shapes), named `name`.
 * With scores, documents are ranked as trec_eval ranks them (score descending, ties by docno
 * descending; rankedGrades.ts); a list without scores is its own ranking (each document gets a
 * score below the one before it).
 *
 * @throws RagciError for an id that is not a string or a number, scores that do not match the
 *   list, a query given twice, or a member name given twice (JSON would keep the last)
 */
export function readJsonRun(
  content: EvalContent,
  file: string,
  name: string,
): { run: Run; shape: JsonRunShape; listOrder: boolean } {
  const found = jsonRunRecords(content);
  if (found === null)
    throw new RagciError(
      "invalid-value",
      `${file}: not a run as JSON ({query: {document: score}}, or records of query id and document ids); check ${optionRef("format")}`,
      { file },
    );
  const byQuery = new Map<string, Retrieved[]>();
  const bad = (where: string, what: string) =>
    new RagciError("invalid-value", `${file}: ${where}: ${what}`, { file });
  if (found.shape === "scores by query") {
    const value = (content as { value: Record<string, Record<string, number>> }).value;
    const text = content.kind === "json" ? content.text : undefined;
    const twice = text === undefined ? null : duplicateJsonKey(text);
    if (twice)
      throw bad(
        twice.depth === 1 ? `query ${twice.name}` : `document ${twice.name}`,
        twice.depth === 1
          ? "is a key twice; JSON keeps only the last, give each query once"
          : "is a key twice in one query's scores; JSON keeps only the last, and trec_eval refuses a document retrieved twice (duplicate docs), keep one",
      );
    for (const [query, scores] of Object.entries(value))
      byQuery.set(
        query,
        Object.entries(scores).map(([docno, score]) => ({ docno, score })),
      );
    return { run: { name, byQuery }, shape: found.shape, listOrder: false };
  }
  let withScores: boolean | null = null;
  const seenOn = new Map<string, number>();
  found.records.forEach((r, index) => {
    const record = r as JsonObject;
    const where = content.kind === "jsonl" ? `JSON line ${index + 1}` : `record ${index + 1}`;
    const queryKey = oneOf(record, QUERY_KEYS) as string;
    const query = idOf(record[queryKey]);
    if (query === null)
      throw bad(where, `${queryKey} is not a string or a number; give each query's id`);
    let list = byQuery.get(query);
    if (found.shape === "score by document") {
      const docKey = oneOf(record, DOC_KEYS) as string;
      const docno = idOf(record[docKey]);
      if (docno === null)
        throw bad(where, `${docKey} is not a string or a number; give each document's id`);
      if (list === undefined) {
        list = [];
        byQuery.set(query, list);
      }
      list.push({ docno, score: record[SCORE_KEY] as number });
      return;
    }
    if (list !== undefined)
      throw bad(
        where,
        `query ${query} again (first on ${content.kind === "jsonl" ? "JSON line" : "record"} ${seenOn.get(query)}); give one record per query`,
      );
    seenOn.set(query, index + 1);
    const listKey = oneOf(record, LIST_KEYS) as string;
    const docs = (record[listKey] as unknown[]).map(idOf);
    if (docs.some((d) => d === null))
      throw bad(where, `an entry of ${listKey} is not a string or a number; give document ids`);
    const scores = record[SCORES_KEY];
    const scored = scores !== undefined;
    if (withScores === null) withScores = scored;
    else if (withScores !== scored)
      throw bad(
        where,
        `${scored ? "has" : "has no"} ${SCORES_KEY} and the first record ${scored ? "has none" : "has"}; give scores for every query or for none`,
      );
    if (
      scored &&
      (!Array.isArray(scores) ||
        scores.length !== docs.length ||
        !scores.every((s) => typeof s === "number"))
    )
      throw bad(
        where,
        `${SCORES_KEY} is not a list of ${docs.length} numbers, one per entry of ${listKey}; give one score per document`,
      );
    byQuery.set(
      query,
      docs.map((docno, i) => ({
        docno: docno as string,
        // Without scores, rank i gets a score above every later one: the list is the ranking.
        score: scored ? ((scores as number[])[i] as number) : docs.length - i,
      })),
    );
  });
  return {
    run: { name, byQuery },
    shape: found.shape,
    listOrder: found.shape === "list by query" && withScores === false,
  };
}
