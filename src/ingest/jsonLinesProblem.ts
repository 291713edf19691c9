import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { optionRef, RagciError } from "../core/errors.js";
import { parsePythonJson, pythonJsonFailure } from "./evalFormats/pythonJson.js";
import { fileStart } from "./fileStart.js";
import type { InputFormat } from "./inputFormat.js";
import { firstNonUtf8Line, notUtf8 } from "./textEncoding.js";

// What is wrong with a file read as JSON Lines (one JSON object per line), said before or
// instead of DuckDB's messages: a JSON array read as lines gives one column named "json", a
// document over several lines "Malformed JSON … Try auto-detecting the JSON format" (an option
// ragci does not offer), and a cut line a line number one past the file's.

const isBlank = (line: string) => line.trim() === "";

/** JSON, with the constants NaN and ±Infinity that Python writes and DuckDB reads. */
function parses(line: string): boolean {
  try {
    parsePythonJson(line);
    return true;
  } catch {
    return false;
  }
}

/** A JSON array where JSON lines were expected: the conversion to give. */
function jsonArray(file: string): RagciError {
  return new RagciError(
    "unreadable-input",
    `${file}: a JSON array, but ragci reads JSON Lines (one object per line); convert it, e.g. \`jq -c '.[]' ${file} > rows.jsonl\`, and give that`,
    { file },
  );
}

/**
 * The first line that is not JSON, in a file of JSON lines, as a refusal; null when every line
 * is JSON. A first line that opens a document left open ("{" alone) is a document written
 * over several lines; a bad line that no line follows is a cut-off file.
 */
export class JsonLinesScan {
  private lineNumber = 0;
  private bad: { readonly line: number; readonly text: string } | null = null;
  /** Whether a line follows the bad one, and whether that line is JSON. */
  private next: boolean | null = null;
  private jsonLines = 0;

  constructor(private readonly file: string) {}

  /** Takes the next line; false once the scan has seen enough. */
  add(line: string): boolean {
    this.lineNumber++;
    if (isBlank(line)) return true;
    if (this.bad !== null) {
      this.next = parses(line);
      return false;
    }
    if (parses(line)) this.jsonLines++;
    else this.bad = { line: this.lineNumber, text: line.trim() };
    return true;
  }

  /** Whether the file opens one JSON object over several lines ("{" and no JSON line). */
  get isDocument(): boolean {
    return this.jsonLines === 0 && this.bad?.text.startsWith("{") === true && this.next === false;
  }

  /** The refusal, or null when every line is JSON. */
  result(): RagciError | null {
    const bad = this.bad;
    if (bad === null) return null;
    const file = this.file;
    const first = this.jsonLines === 0;
    if (first && bad.text.startsWith("[")) return jsonArray(file);
    // "{" (or `{"key": …,`) opening the file, and the next line not JSON either.
    if (this.isDocument)
      return new RagciError(
        "unreadable-input",
        `${file}: one JSON document written over several lines, but ragci reads JSON Lines (one object per line); if a tool wrote it, name the tool with ${optionRef("format")}, else write one record per line (e.g. \`jq -c '.[]'\` for an array of records)`,
        { file },
      );
    const where = `${file} line ${bad.line}`;
    if (this.next === null)
      return new RagciError(
        "unreadable-input",
        `${where}: the last line is not complete JSON (is the file cut off?); write the file again`,
        { file, row: bad.line },
      );
    return new RagciError(
      "unreadable-input",
      `${where}: not JSON, while JSON Lines hold one JSON object per line; fix or remove the line`,
      { file, row: bad.line },
    );
  }
}

/**
 * What is wrong with one JSON document (over several lines) that does not parse: it ends
 * before it closes (a cut-off file), or the line where JSON.parse stopped; null when it parses.
 */
export function jsonDocumentProblem(text: string, file: string): RagciError | null {
  const failure = pythonJsonFailure(text);
  if (failure === null) return null;
  const { message, position } = failure;
  if (/end of JSON input/.test(message) || (position !== null && position >= text.trimEnd().length))
    return new RagciError(
      "unreadable-input",
      `${file}: one JSON document that ends before it closes (is the file cut off?); write the file again`,
      { file },
    );
  const line = position === null ? null : text.slice(0, position).split("\n").length;
  // V8's words, without the position (given as the line) or the text it quotes.
  const why = message
    .replace(/ (?:in|after) JSON at position \d+.*$/s, "")
    .replace(/, ".*" is not valid JSON$/s, "")
    .replace(/\s+/g, " ");
  return new RagciError(
    "unreadable-input",
    `${file}${line === null ? "" : ` line ${line}`}: not valid JSON (${why}); fix the file or write it again`,
    { file, ...(line === null ? {} : { row: line }) },
  );
}

/** JsonLinesScan over a text held in memory. */
export function jsonLinesProblemOfText(text: string, file: string): RagciError | null {
  const scan = new JsonLinesScan(file);
  for (const line of text.split("\n")) if (!scan.add(line)) break;
  return scan.result();
}

/** JsonLinesScan over a file, read line by line (after DuckDB failed to read it). */
export async function jsonLinesProblem(path: string, file: string): Promise<RagciError | null> {
  const scan = new JsonLinesScan(file);
  const stream = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    let first = true;
    for await (const line of lines) {
      if (!scan.add(first ? line.replace(/^\uFEFF/, "") : line)) break;
      first = false;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  // One document over several lines: whether it is whole (read whole only up to 256 MiB).
  if (scan.isDocument && (await stat(path)).size <= DOCUMENT_BYTES) {
    const text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
    const problem = jsonDocumentProblem(text, file);
    if (problem) return problem;
  }
  return scan.result();
}

/** The largest JSON document read whole to say where it breaks. */
const DOCUMENT_BYTES = 256 * 2 ** 20;

/** Compressed inputs are left to DuckDB, which decompresses them. */
const COMPRESSED = /\.(gz|zst)$/i;

/**
 * A file read as JSON Lines that starts with "[" is a JSON array (DuckDB would read each line
 * as one value of a column "json"): refused with the conversion. Reads the first 64 KiB.
 */
export async function checkJsonLinesStart(
  path: string,
  file: string,
  format: InputFormat,
): Promise<void> {
  if (format !== "jsonl" || COMPRESSED.test(path)) return;
  const start = (await fileStart(path))
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (start.startsWith("[")) throw jsonArray(file);
}

/** After DuckDB failed to read a JSON Lines file: the first line that is not JSON, if any. */
export async function explainJsonLines(
  path: string,
  file: string,
  format: InputFormat,
): Promise<RagciError | null> {
  if (format !== "jsonl" || COMPRESSED.test(path)) return null;
  const problem = await jsonLinesProblem(path, file);
  if (problem) return problem;
  // A Latin-1 byte reads as U+FFFD, which parses: named by its line (DuckDB's is one off).
  const line = await firstNonUtf8Line(path);
  return line === null ? null : notUtf8(file, line, format);
}
