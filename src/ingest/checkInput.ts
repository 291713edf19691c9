import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { RagciError } from "../core/errors.js";
import { unclosedQuote } from "./csvReadError.js";
import { refuseAlikeNames } from "./distinctColumnNames.js";
import { fileStart } from "./fileStart.js";
import type { InputFormat } from "./inputFormat.js";

/**
 * What can be said about an input before DuckDB sees it: that it exists, is a file and is
 * not empty. DuckDB's own messages for these ("cannot tell the format", "column0") mislead.
 */
export async function checkInputFile(path: string, displayName: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === "ENOENT"
        ? "no such file"
        : error.code === "EACCES"
          ? "permission denied"
          : error.message;
    throw new RagciError("unreadable-input", `${displayName}: cannot read it (${reason})`, {
      file: displayName,
    });
  });
  if (info.isDirectory()) {
    throw new RagciError(
      "unreadable-input",
      `${displayName}: is a directory; give the results file (or files) inside it`,
      { file: displayName },
    );
  }
  // A pipe or device reads as size 0; the commands that take one copy it first (spoolSource).
  if (!info.isFile()) {
    throw new RagciError(
      "unreadable-input",
      `${displayName}: is not a regular file (a pipe or a device); write it to a file and give that`,
      { file: displayName },
    );
  }
  if (info.size === 0) {
    throw new RagciError(
      "empty-input",
      `${displayName}: ${displayName === "stdin" ? "nothing was read from standard input" : "the file is empty"}; there is nothing to analyse`,
      { file: displayName },
    );
  }
}

/** A record's field count at its first line, or a quoted field left open at the line it opens. */
type ScannedRecord =
  | { readonly line: number; readonly fields: number }
  | { readonly line: number; readonly unclosedQuote: true };

/**
 * Field counts of the CSV records, with each record's first line, read as DuckDB reads a file
 * whose quote is `"` (RFC 4180): a quote opens a field only at its start, `""` inside it is a
 * quote, and the closing quote comes right before the delimiter or the line end. Stops at a
 * quoted field that is not closed so (DuckDB: "Value with unterminated quote found").
 */
async function* csvRecordWidths(path: string, delimiter: string): AsyncGenerator<ScannedRecord> {
  let line = 1;
  let start = 1;
  let fields = 1;
  let empty = true;
  let atFieldStart = true;
  let quoted = false;
  // A quote seen inside a quoted field: a doubled quote or the closing one, as the next tells.
  let closing = false;
  let openedAt = 0;
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 16 });
  for await (const chunk of stream as AsyncIterable<string>) {
    for (const ch of chunk) {
      if (closing) {
        closing = false;
        if (ch === '"') continue;
        quoted = false;
        if (ch !== delimiter && ch !== "\n" && ch !== "\r") {
          yield { line: openedAt, unclosedQuote: true };
          return;
        }
      }
      if (quoted) {
        if (ch === '"') closing = true;
        else if (ch === "\n") line++;
        continue;
      }
      if (ch === '"' && atFieldStart) {
        quoted = true;
        openedAt = line;
        atFieldStart = false;
        empty = false;
      } else if (ch === delimiter) {
        fields++;
        atFieldStart = true;
        empty = false;
      } else if (ch === "\n") {
        if (!empty) yield { line: start, fields };
        fields = 1;
        empty = true;
        atFieldStart = true;
        line++;
        start = line;
      } else if (ch !== "\r") {
        atFieldStart = false;
        empty = false;
      }
    }
  }
  if (quoted && !closing) yield { line: openedAt, unclosedQuote: true };
  else if (!empty) yield { line: start, fields };
}

/** The header's field names (first record), quote-aware; reads only the start of the file. */
async function csvHeader(path: string, delimiter: string): Promise<string[]> {
  const text = (await fileStart(path)).toString("utf8").replace(/^\uFEFF/, "");
  const names: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') {
      if (quoted && text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = !quoted;
    } else if (!quoted && ch === delimiter) {
      names.push(field);
      field = "";
    } else if (!quoted && (ch === "\n" || ch === "\r")) {
      break;
    } else field += ch;
  }
  names.push(field);
  return names.map((n) => n.trim());
}

/**
 * Checks a CSV/TSV header and record widths: a repeated column name, or two equal ignoring
 * case, is refused (DuckDB would rename the second `hit_1` silently), and when DuckDB could not split the rows, the first record
 * whose field count differs from the header's, or a quoted field left open, is named.
 */
export async function checkDelimitedLayout(
  path: string,
  displayName: string,
  format: InputFormat,
  columns: readonly string[],
): Promise<void> {
  if (format !== "csv" && format !== "tsv") return;
  if (/\.(gz|zst)$/i.test(path)) return;
  const delimiter = format === "tsv" ? "\t" : ",";
  const header = await csvHeader(path, delimiter);
  refuseAlikeNames(header, displayName, " line 1", true);
  // When rows do not line up, DuckDB's sniffer settles on another layout (one column named
  // after the whole header, or a data row taken for the header): the widths disagree.
  if (columns.length === header.length) return;
  for await (const record of csvRecordWidths(path, delimiter)) {
    if ("unclosedQuote" in record) throw unclosedQuote(displayName, record.line);
    if (record.fields !== header.length) {
      throw new RagciError(
        "invalid-value",
        `${displayName} line ${record.line}: ${record.fields} field${record.fields === 1 ? "" : "s"} where the header has ${header.length}; fix the row (quote values that contain "${format === "tsv" ? "\\t" : ","}")`,
        { file: displayName, row: record.line },
      );
    }
  }
}
