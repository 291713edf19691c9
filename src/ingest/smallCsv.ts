import { open } from "node:fs/promises";

/**
 * A small CSV of plain tokens, parsed without DuckDB, with the column types DuckDB's sniffer
 * gives it — or null whenever the file or a value is outside what is certain here, so that the
 * caller reads it with DuckDB instead (readSmallResults.ts). Nothing here refuses a file.
 *
 * The subset: at most SMALL_CSV_BYTES and SMALL_CSV_ROWS data rows (DuckDB's sniffer then
 * looks at every row); bytes from [A-Za-z0-9_.,-] and line ends only (no quote, space, tab,
 * BOM or other delimiter DuckDB could pick), every line ended by LF or every one by CRLF; a
 * header of identifiers; every row as wide as the header. An empty field is NULL to DuckDB: it
 * is kept as "" (the caller decides), and the types pass over it. Types, as `read_csv` sniffs
 * them (DuckDB 1.5, checked value by value in test/ingest/readSmallResults.test.ts):
 * - VARCHAR when some value starts with a letter and is not a word DuckDB casts (true, yes,
 *   nan, infinity, epoch, … are BOOLEAN, DOUBLE or DATE to it);
 * - else BIGINT when every value is an integer written without a sign but minus and without
 *   leading zeros (DuckDB reads "007" and "+1" as VARCHAR), at most 15 digits;
 * - else DOUBLE when every value is such an integer or one with a fraction ("0.25");
 * - else unknown (a date, "1e5", ".5", a column of NULLs, …): null.
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
  readonly types: readonly SniffedType[];
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

/** Bytes allowed anywhere: A–Z, a–z, 0–9, '_', '.', '-', ',', LF and CR (of CRLF only). */
const ALLOWED = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-,\n\r")
  ALLOWED[c.charCodeAt(0)] = 1;

/** The file's header, values and sniffed types, or null outside the subset above. */
export function parseSmallCsv(bytes: Uint8Array): SmallCsv | null {
  if (bytes.length === 0 || bytes.length > SMALL_CSV_BYTES) return null;
  for (let i = 0; i < bytes.length; i++) if (ALLOWED[bytes[i] as number] !== 1) return null;
  let text = new TextDecoder().decode(bytes);
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
  const types: SniffedType[] = [];
  for (const column of columns) {
    const type = sniffedType(column);
    if (type === null) return null;
    types.push(type);
  }
  return { names, columns, types };
}

/** The file parsed when it is a regular file within SMALL_CSV_BYTES and the subset; else null. */
export async function readSmallCsv(path: string): Promise<SmallCsv | null> {
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
  type: string | undefined,
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
