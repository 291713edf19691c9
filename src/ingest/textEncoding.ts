import { createReadStream } from "node:fs";
import { RagciError } from "../core/errors.js";
import { fileStart } from "./fileStart.js";
import type { InputFormat } from "./inputFormat.js";

// DuckDB reads CSV, TSV and JSON Lines as UTF-8. A UTF-16 file (Excel's "Unicode Text",
// PowerShell's default) then fails with a message about field counts or JSON, or "not utf-8
// encoded" with no way out; its first bytes say what it is, so it is named before DuckDB reads it.

/** How many bytes of the start are looked at: a few lines, read once. */
const START_BYTES = 4096;

/** An encoding ragci does not read, as the start of the file shows it. */
interface ForeignEncoding {
  /** Its name as iconv knows it, and what the file shows. */
  readonly iconv: string;
  readonly described: string;
}

/** Byte-order marks, longest first (UTF-32 LE's starts with UTF-16 LE's). */
const MARKS: readonly (readonly [readonly number[], ForeignEncoding])[] = [
  [
    [0xff, 0xfe, 0, 0],
    { iconv: "UTF-32", described: "UTF-32 (little-endian, with a byte-order mark)" },
  ],
  [
    [0, 0, 0xfe, 0xff],
    { iconv: "UTF-32", described: "UTF-32 (big-endian, with a byte-order mark)" },
  ],
  [[0xff, 0xfe], { iconv: "UTF-16", described: "UTF-16 (little-endian, with a byte-order mark)" }],
  [[0xfe, 0xff], { iconv: "UTF-16", described: "UTF-16 (big-endian, with a byte-order mark)" }],
];

/**
 * The encoding the first bytes show, when it is not UTF-8: a byte-order mark, else UTF-16's
 * zero bytes (ASCII text in UTF-16 has a zero byte in every pair: the second of each in
 * little-endian, the first in big-endian). Null for UTF-8 (with or without its mark), ASCII, or
 * bytes that say nothing.
 */
export function foreignEncoding(start: Uint8Array): ForeignEncoding | null {
  for (const [mark, encoding] of MARKS)
    if (mark.length <= start.length && mark.every((b, i) => start[i] === b)) return encoding;
  const pairs = Math.floor(start.length / 2);
  if (pairs < 2) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < pairs; i++) {
    const even = start[2 * i] === 0;
    const odd = start[2 * i + 1] === 0;
    if (odd && !even) oddZero++;
    if (even && !odd) evenZero++;
  }
  // Text in UTF-8 has no zero bytes; most pairs with one is UTF-16 text without a mark.
  if (oddZero > pairs / 2)
    return { iconv: "UTF-16LE", described: "UTF-16 (little-endian, no byte-order mark)" };
  if (evenZero > pairs / 2)
    return { iconv: "UTF-16BE", described: "UTF-16 (big-endian, no byte-order mark)" };
  return null;
}

/** A file name as one shell word. */
const shellWord = (name: string) =>
  /^[\w./+-]+$/.test(name) ? name : `'${name.replaceAll("'", "'\\''")}'`;

/**
 * What to do: the iconv command that writes `file` as UTF-8 next to it (`x.csv` to
 * `x-utf8.csv`), or for standard input the pipe to put it through.
 */
export function toUtf8Command(file: string, from: string, format: InputFormat): string {
  if (file === "stdin") return `pipe it through \`iconv -f ${from} -t UTF-8\``;
  const converted = `${file.replace(/\.[^./]*$/, "")}-utf8.${format}`;
  return `convert it, e.g. \`iconv -f ${from} -t UTF-8 ${shellWord(file)} > ${shellWord(converted)}\`, and give that`;
}

/**
 * Refuses a CSV, TSV or JSON Lines file whose first bytes show UTF-16 or UTF-32, naming the
 * encoding and the conversion. Compressed files are left to DuckDB (their bytes are not text).
 */
export async function checkTextEncoding(
  path: string,
  file: string,
  format: InputFormat,
): Promise<void> {
  if (format === "parquet" || /\.(gz|zst)$/i.test(path)) return;
  // A file that cannot be opened is named by checkInputFile, with the reason.
  const start = await fileStart(path, START_BYTES).catch(() => null);
  if (start === null) return;
  const encoding = foreignEncoding(start);
  if (encoding === null) return;
  throw new RagciError(
    "unreadable-input",
    `${file}: the text is ${encoding.described}, and ragci reads UTF-8; ${toUtf8Command(file, encoding.iconv, format)}`,
    { file },
  );
}

/**
 * Bytes that are not UTF-8 at `line`, as one line: the file, the line, and the conversion of a
 * Latin-1 file (the usual cause: é is the one byte 0xE9 there).
 */
export function notUtf8(file: string, line: number, format: InputFormat): RagciError {
  const fix = /\.(gz|zst)$/i.test(file)
    ? "decompress it, convert it with `iconv -f LATIN1 -t UTF-8`, and give that"
    : toUtf8Command(file, "LATIN1", format);
  return new RagciError(
    "unreadable-input",
    `${file} line ${line}: has bytes that are not UTF-8 (ragci reads UTF-8); if it was saved as Latin-1 (é as the one byte 0xE9), ${fix}`,
    { file, row: line },
  );
}

/**
 * The line of the first byte sequence that is not UTF-8 (a lead byte UTF-8 never uses, or one
 * without its continuation bytes), else null. Read after DuckDB failed on a file, whose own line
 * for it is one off in JSON Lines.
 */
export async function firstNonUtf8Line(path: string): Promise<number | null> {
  let line = 1;
  let awaited = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (const byte of chunk) {
      if (awaited > 0) {
        if ((byte & 0xc0) !== 0x80) return line;
        awaited--;
        continue;
      }
      if (byte < 0x80) {
        if (byte === 0x0a) line++;
        continue;
      }
      if (byte >= 0xc2 && byte <= 0xdf) awaited = 1;
      else if (byte >= 0xe0 && byte <= 0xef) awaited = 2;
      else if (byte >= 0xf0 && byte <= 0xf4) awaited = 3;
      else return line;
    }
  }
  return awaited > 0 ? line : null;
}
