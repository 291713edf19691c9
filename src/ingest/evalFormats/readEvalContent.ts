import { readFile } from "node:fs/promises";
import { optionRef, RagciError } from "../../core/errors.js";
import { fileStart } from "../fileStart.js";
import { jsonDocumentProblem, jsonLinesProblemOfText } from "../jsonLinesProblem.js";
import { braintrustFormat } from "./braintrust.js";
import { deepevalFormat } from "./deepeval.js";
import { evaliteFormat } from "./evalite.js";
import type { EvalContent, EvalFormat, EvalFormatName } from "./evalRows.js";
import { inspectFormat } from "./inspect.js";
import { runJsonFormat, runJsonlFormat } from "./jsonRun.js";
import { promptfooFormat } from "./promptfoo.js";
import { parsePythonJson } from "./pythonJson.js";
import { isSqliteFile, sqliteTables } from "./sqliteTables.js";
import { trecEvalFormat } from "./trecEval.js";
import { trecRunFormat, trecRunMisfit } from "./trecRun.js";
import { zipJsonMembers } from "./zipMembers.js";

/** The tools whose outputs ragci reads, tried in this order when none is named. */
export const EVAL_FORMATS: readonly EvalFormat[] = [
  promptfooFormat,
  inspectFormat,
  deepevalFormat,
  braintrustFormat,
  evaliteFormat,
  trecEvalFormat,
  trecRunFormat,
  runJsonFormat,
  runJsonlFormat,
];

export const EVAL_FORMAT_NAMES: readonly EvalFormatName[] = EVAL_FORMATS.map((f) => f.name);

const ZIP_MAGIC = 0x04034b50;
const HEAD_BYTES = 1 << 16;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parsePythonJson(text) };
  } catch {
    return { ok: false };
  }
}

const isObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Unreachable in practice: text JSON.parse refused is text the problem finders name. */
function unreadableLine(file: string): RagciError {
  return new RagciError("unreadable-input", `${file}: not JSON; check the file`, { file });
}

/**
 * A whole file as the tools write it: a zip's JSON members, a SQLite database's tables, one
 * JSON document, JSON lines or text.
 */
export async function readEvalContent(path: string, file: string): Promise<EvalContent> {
  const bytes = await readFile(path);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === ZIP_MAGIC)
    return { kind: "members", members: zipJsonMembers(bytes, file) };
  if (isSqliteFile(bytes)) return { kind: "sqlite", tables: await sqliteTables(path, file, bytes) };
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const whole = parseJson(text);
  if (whole.ok) return { kind: "json", value: whole.value, text };
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  // One document over several lines that does not parse (a cut-off log): said, not read as text.
  if (/^\s*[[{]/.test(text) && !parseJson(lines[0] ?? "").ok)
    throw jsonDocumentProblem(text, file) ?? unreadableLine(file);
  const values: unknown[] = [];
  for (const line of lines) {
    const parsed = parseJson(line);
    if (!parsed.ok) {
      // JSON lines with one that is not (a cut-off last line): named, not read as text.
      if (isObject(values[0])) throw jsonLinesProblemOfText(text, file) ?? unreadableLine(file);
      return { kind: "text", text };
    }
    values.push(parsed.value);
  }
  return { kind: "jsonl", values };
}

/**
 * Which tool wrote a file, from its first 64 KiB (so a large per-query CSV or JSONL is not
 * read twice): a zip, one JSON document spanning lines, the first JSON lines, or trec_eval text.
 * Null when it is none of them (then it is read as a results table).
 */
export async function sniffEvalFormat(path: string): Promise<EvalFormat | null> {
  const start = await fileStart(path, HEAD_BYTES);
  if (start.length >= 4 && start.readUInt32LE(0) === ZIP_MAGIC) return inspectFormat;
  // evalite's store is the one SQLite file ragci reads; its reader says what else one is.
  if (isSqliteFile(start)) return evaliteFormat;
  const text = start.toString("utf8").replace(/^\uFEFF/, "");
  const complete = start.length < HEAD_BYTES;
  const lines = text.split("\n");
  // The last line of a partial read may be cut: judge on whole lines only.
  const whole = (complete ? lines : lines.slice(0, -1)).filter((l) => l.trim() !== "");
  // A first line longer than the head (one minified document) is judged by its start.
  const first = (whole[0] ?? lines[0] ?? "").trim();
  let sample: EvalContent;
  if (first.startsWith("{") && parseJson(first).ok) {
    const values = whole.slice(0, 50).map((l) => parseJson(l));
    const bad = values.findIndex((v) => !v.ok);
    // A line that is not JSON (a cut-off last line): the lines before it tell the tool, and its
    // reader names the line; with no tool found, it is read as a table, which names it too.
    if (bad >= 0) {
      const before = values.slice(0, bad).map((v) => (v.ok ? v.value : null));
      return EVAL_FORMATS.find((f) => f.detect({ kind: "jsonl", values: before })) ?? null;
    }
    const parsed = values.map((v) => (v.ok ? v.value : null));
    // A single line may be a whole minified document rather than one JSON line.
    if (whole.length === 1 && complete) {
      const document: EvalContent = { kind: "json", value: parsed[0] };
      const found = EVAL_FORMATS.find((f) => f.detect(document));
      if (found) return found;
    }
    sample = { kind: "jsonl", values: parsed };
  } else if (first.startsWith("{") || first.startsWith("[")) {
    // One JSON document over many lines: the tools' .json outputs. Parsed whole to tell which.
    const content = await readEvalContent(path, path);
    return EVAL_FORMATS.find((f) => f.detect(content)) ?? null;
  } else {
    sample = { kind: "text", text: whole.join("\n") };
  }
  return EVAL_FORMATS.find((f) => f.detect(sample)) ?? null;
}

/** The format named by --format, when it names a tool. */
export function namedEvalFormat(name: string | null | undefined): EvalFormat | null {
  if (!name) return null;
  const key = name.toLowerCase().replace("-", "_");
  return EVAL_FORMATS.find((f) => f.name === key) ?? null;
}

/** @throws RagciError when a named tool's reader does not recognise the file */
export function requireFormat(format: EvalFormat, content: EvalContent, file: string): void {
  // Not JSON at all (a CSV, promptfoo's CSV export among them): what ragci reads of promptfoo.
  if (format.name === "promptfoo" && content.kind === "text")
    throw new RagciError(
      "invalid-value",
      `${file}: not JSON, and ragci reads promptfoo's JSON output (-o results.json or .jsonl; its CSV export has no test index and no metadata column, so neither the pairing nor the document can be read from it); write the results with -o results.json, or check ${optionRef("format")}`,
      { file },
    );
  if (content.kind === "sqlite" && !format.detect(content))
    throw new RagciError(
      "invalid-value",
      `${file}: a SQLite file without evalite's tables (runs, evals, results, scores); ragci reads a SQLite file only as evalite's store`,
      { file },
    );
  // A file named a TREC run: its first line the reader cannot take, else it is read as one.
  if (format.name === "trec_run" && content.kind === "text" && !format.detect(content)) {
    const misfit = trecRunMisfit(content.text, file);
    if (misfit) throw misfit;
    return;
  }
  if (!format.detect(content))
    throw new RagciError(
      "invalid-value",
      `${file}: does not look like ${format.name} output; check ${optionRef("format")} (or leave it out to detect the tool)`,
      { file },
    );
}

/** Extensions that are always results tables, never a tool's output. */
const TABLE_EXTENSION = /\.(csv|tsv|tab|parquet|pq)(\.gz|\.zst)?$/i;
const TABLE_FORMATS = ["csv", "tsv", "jsonl", "ndjson", "parquet"];

/**
 * The tool that wrote a results file: the one --format names, else detected from content
 * (files named as tables, and --format csv|tsv|jsonl|parquet, are tables). Null for a table.
 */
export async function evalFormatOf(
  path: string,
  declared: string | null,
): Promise<EvalFormat | null> {
  if (declared) {
    if (TABLE_FORMATS.includes(declared.toLowerCase())) return null;
    return namedEvalFormat(declared);
  }
  if (TABLE_EXTENSION.test(path)) return null;
  return sniffEvalFormat(path).catch(() => null);
}
