import { open } from "node:fs/promises";

/**
 * A small CSV split only at commas and line ends, parsed without DuckDB, with the column types
 * DuckDB's sniffer gives it — or null whenever the file is outside what is certain here, so
 * that the caller reads it with DuckDB instead (readSmallResults.ts, readSmallPairedResults.ts).
 * Nothing here refuses a file.
 *
 * The subset: at most SMALL_CSV_BYTES and SMALL_CSV_ROWS data rows (DuckDB's sniffer then
 * looks at every row); valid UTF-8 without a BOM, with none of the characters that could make
 * DuckDB read it otherwise than split at commas and line ends: no quote (`"`), no other
 * delimiter it could pick (`;`, `|`, tab), no `#` or `\`, no control character; every line
 * ended by LF or every one by CRLF; a header of identifiers; every row as wide as the header.
 * Spaces and other text are kept as written, as DuckDB keeps them. An empty field is NULL to
 * DuckDB: it is kept as "" (the caller decides), and the types pass over it. Types, as
 * `read_csv` sniffs them (DuckDB 1.5, checked value by value in
 * test/ingest/readSmallResults.test.ts), or null where not certain (the caller decides whether
 * the column's type matters):
 * - VARCHAR when some value starts with a letter and is not a word DuckDB casts (true, yes,
 *   nan, infinity, epoch, … are BOOLEAN, DOUBLE or DATE to it);
 * - else BIGINT when every value is an integer written without a sign but minus and without
 *   leading zeros (DuckDB reads "007" and "+1" as VARCHAR), at most 15 digits;
 * - else DOUBLE when every value is such an integer or one with a fraction ("0.25");
 * - else unknown (free text, a date, "1e5", ".5", a column of NULLs, …): null.
 */

/** Largest file read without DuckDB (bytes). */
export const SMALL_CSV_BYTES = 1024 * 1024;
/**
 * Most data rows read without DuckDB: well within the 20,480 rows DuckDB's sniffer samples, so
 * that every value counts in its types (a type changed by row 20,000 is seen; by row 20,480 not).
 */
export const SMALL_CSV_ROWS = 10_000;

export type SniffedType = "VARCHAR" | "BIGINT" | "DOUBLE";

/** DuckDB's order of VARCHARs (by bytes), which is JavaScript's code-unit order on ASCII. */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export interface SmallCsv {
  readonly names: readonly string[];
  /** Each column's values (as written), column by column. */
  readonly columns: readonly (readonly string[])[];
  /** Each column's sniffed type; null where it is not certain. */
  readonly types: readonly (SniffedType | null)[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;
const FRACTION = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,30}$/;
const WORD = /^[A-Za-z][A-Za-z0-9_.-]*$/;
/** Words that some DuckDB cast accepts (BOOLEAN, DOUBLE, DATE, TIMESTAMP, …), and kin. */
const CAST_WORDS = new Set([
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "nan",
  "inf",
  "infinity",
  "epoch",
  "today",
  "now",
  "yesterday",
  "tomorrow",
  "allballs",
  "null",
  "none",
]);

/** A value DuckDB can only read as text: a word of two or more characters, not a cast word. */
function certainlyText(value: string): boolean {
  return value.length >= 2 && WORD.test(value) && !CAST_WORDS.has(value.toLowerCase());
}

/** The type DuckDB's sniffer gives a column of these values, or null when it is not certain. */
export function sniffedType(values: readonly string[]): SniffedType | null {
  if (values.some(certainlyText)) return "VARCHAR";
  let fraction = false;
  let present = false;
  for (const value of values) {
    if (value === "") continue; // NULL, which the sniffer passes over
    present = true;
    if (INTEGER.test(value)) continue;
    if (!FRACTION.test(value)) return null;
    fraction = true;
  }
  if (!present) return null;
  return fraction ? "DOUBLE" : "BIGINT";
}

/**
 * Bytes allowed: printable ASCII but for `"`, `#`, `;`, `\` and `|`; LF and CR (of CRLF only);
 * and bytes of multi-byte UTF-8 characters (checked to be valid UTF-8 when decoded).
 */
const ALLOWED = new Uint8Array(256).fill(1, 0x80);
for (let c = 0x20; c < 0x7f; c++) ALLOWED[c] = 1;
for (const c of '"#;\\|') ALLOWED[c.charCodeAt(0)] = 0;
ALLOWED[0x0a] = 1;
ALLOWED[0x0d] = 1;

/** UTF-8 decoding that fails on invalid bytes (DuckDB's path refuses them). */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * An id the small readers take: printable ASCII (so that ids sort by bytes, as DuckDB sorts
 * them) and not blank (DuckDB's path refuses an empty or all-space document or system).
 */
export function isAsciiId(id: string): boolean {
  return /^[\x20-\x7e]+$/.test(id) && id.trim() !== "";
}

/** The file's header, values and sniffed types, or null outside the subset above. */
export function parseSmallCsv(bytes: Uint8Array): SmallCsv | null {
  if (bytes.length === 0 || bytes.length > SMALL_CSV_BYTES) return null;
  for (let i = 0; i < bytes.length; i++) if (ALLOWED[bytes[i] as number] !== 1) return null;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return null;
  }
  if (text.startsWith("\ufeff")) return null;
  if (text.includes("\r")) {
    // Every line ended by CRLF, or none: DuckDB takes either, a mixture is left to it.
    const crlf = text.split("\r\n").length - 1;
    if (crlf !== text.split("\r").length - 1 || crlf !== text.split("\n").length - 1) return null;
    text = text.replaceAll("\r\n", "\n");
  }
  if (text.endsWith("\n")) text = text.slice(0, -1);
  const lines = text.split("\n");
  const names = (lines[0] as string).split(",");
  const rows = lines.length - 1;
  if (names.length < 2 || rows < 1 || rows > SMALL_CSV_ROWS) return null;
  if (!names.every((name) => NAME.test(name))) return null;
  const columns = names.map(() => new Array<string>(rows));
  for (let r = 0; r < rows; r++) {
    const fields = (lines[r + 1] as string).split(",");
    if (fields.length !== names.length) return null;
    for (let c = 0; c < fields.length; c++) (columns[c] as string[])[r] = fields[c] as string;
  }
  return { names, columns, types: columns.map(sniffedType) };
}

/**
 * The file parsed when it is an uncompressed regular file within SMALL_CSV_BYTES and the subset;
 * else null.
 */
export async function readSmallCsv(path: string): Promise<SmallCsv | null> {
  if (/\.(gz|zst)$/i.test(path)) return null;
  const handle = await open(path, "r").catch(() => null);
  if (handle === null) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > SMALL_CSV_BYTES) return null;
    return parseSmallCsv(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** A metric's values as DuckDB reads them (pinned to DOUBLE), and how its sums are added. */
export interface MetricNumbers {
  readonly x: Float64Array;
  /** summation.ts's mode from the sniffed type: BIGINT → "integer", DOUBLE → "decimal". */
  readonly mode: "integer" | "decimal";
}

/**
 * The values of a metric column, or null where DuckDB's reading would refuse one (an empty
 * field, a word) or a −0 could show (min and max of ±0).
 */
export function metricNumbers(
  values: readonly string[],
  type: SniffedType | null | undefined,
): MetricNumbers | null {
  if (type !== "BIGINT" && type !== "DOUBLE") return null;
  const x = new Float64Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r] as string;
    if (v === "") return null;
    const number = Number(v);
    if (Object.is(number, -0)) return null;
    x[r] = number;
  }
  return { x, mode: type === "BIGINT" ? "integer" : "decimal" };
}
