// A run as JSON or JSON lines (the shapes of ranx, pytrec_eval and ir_datasets:
// src/ingest/trecRun/jsonRun.ts), scored against --qrels exactly as a TREC run is.
import { createHash } from "node:crypto";
import { jsonRunRecords, readJsonRun } from "../trecRun/jsonRun.js";
import { runInputs, scoreRun } from "../trecRun/scoreRun.js";
import type { EvalContent, EvalFormat, EvalReadOptions, EvalRows } from "./evalRows.js";

/** The file's name without its folder and a JSON extension: the system's name. */
function runName(file: string): string {
  return file.replace(/^.*[\\/]/, "").replace(/\.(jsonl|ndjson|json)$/i, "") || file;
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  runInputs(options, "JSON run");
  const name = runName(file);
  const { run, shape, listOrder } = readJsonRun(content, file, name);
  const text =
    content.kind === "json"
      ? (content.text ?? JSON.stringify(content.value))
      : JSON.stringify(content.kind === "jsonl" ? content.values : null);
  const read = scoreRun(
    run,
    options,
    {
      key: createHash("sha256").update(text).digest("hex"),
      label: file.replace(/^.*[\\/]/, ""),
    },
    "JSON run",
  );
  const order = listOrder
    ? "each query's documents ranked in the order of its list (the file gives no scores)"
    : "each query's documents ranked by score as trec_eval ranks them";
  return {
    ...read,
    notes: [
      ...read.notes,
      `JSON run ${name}: read as ${shape === "scores by query" ? "{query: {document: score}}" : shape === "list by query" ? "one record per query with its list of documents" : "one record per query and document with its score"}; ${order}; the file's name names the system`,
    ],
  };
}

/** One JSON document: `{query: {document: score}}` or an array of records. */
export const runJsonFormat: EvalFormat = {
  name: "run_json",
  detect: (content) => {
    if (content.kind !== "json") return false;
    const found = jsonRunRecords(content);
    // A single record is a one-line JSON lines file (runJsonlFormat).
    return found !== null && (found.shape === "scores by query" || Array.isArray(content.value));
  },
  toRows,
};

/** JSON lines, one record per query (with its list) or per retrieved document. */
export const runJsonlFormat: EvalFormat = {
  name: "run_jsonl",
  detect: (content) => {
    if (content.kind === "json" && Array.isArray(content.value)) return false;
    const found = jsonRunRecords(content);
    return found !== null && found.shape !== "scores by query";
  },
  toRows,
};
