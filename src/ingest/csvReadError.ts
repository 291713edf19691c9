import { RagciError } from "../core/errors.js";
import { errorLine } from "./errorLine.js";
import { notUtf8 } from "./textEncoding.js";

// DuckDB's CSV errors that have a line and a fix the user can make, said as one line. Its own
// message is "CSV Error on Line: N" first and the reason lines below, with advice about
// read_csv options (ignore_errors, encoding = …, quote = '') that ragci does not offer.

/**
 * A field that opens with a quote and is not closed by one just before the delimiter or the
 * end of the line (RFC 4180): DuckDB's "Value with unterminated quote found", or the same found
 * by checkDelimitedLayout's scan, at the line where the field opens.
 */
export function unclosedQuote(file: string, line: number): RagciError {
  return new RagciError(
    "invalid-value",
    `${file} line ${line}: a field opens with a quote (") that is not closed right before the next delimiter or line end; close it there (a quote inside a quoted field is written twice: ""), or remove the opening quote`,
    { file, row: line },
  );
}

/**
 * The refusal for a DuckDB CSV error with a line ragci can explain: bytes that are not UTF-8,
 * or an unclosed quote; null for any other error.
 */
export function csvReadRefusal(file: string, error: unknown): RagciError | null {
  const text = error instanceof Error ? error.message : String(error);
  const at = /CSV Error on Line: (\d+)/.exec(text);
  if (!at) return null;
  const line = Number(at[1]);
  if (/Value with unterminated quote found/i.test(text)) return unclosedQuote(file, line);
  if (/Invalid unicode|not utf-8 encoded/i.test(text))
    return notUtf8(file, line, /\.(tsv|tab)/i.test(file) ? "tsv" : "csv");
  return null;
}

/**
 * Any DuckDB CSV error at a line, as one line: csvReadRefusal's, else a value that is not a
 * number under the metric's type (its column and value), else DuckDB's reason at that line;
 * null for an error with no line.
 */
export function csvLineRefusal(file: string, error: unknown): RagciError | null {
  const known = csvReadRefusal(file, error);
  if (known) return known;
  const text = error instanceof Error ? error.message : String(error);
  const csv = /CSV Error on Line: (\d+)/.exec(text);
  if (!csv) return null;
  const column = /converting column "([^"]+)"/.exec(text)?.[1];
  const value = /Could not convert string "([^"]*)"/.exec(text)?.[1];
  const what = column
    ? `column ${column} has ${value === undefined ? "a value" : `"${value}"`}, which is not a number`
    : errorLine(error).replace(/^.*?: /, "");
  return new RagciError("invalid-value", `${file} line ${csv[1]}: ${what}; fix or remove the row`, {
    file,
    row: Number(csv[1]),
    ...(column ? { column } : {}),
  });
}
