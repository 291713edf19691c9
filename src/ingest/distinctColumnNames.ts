import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";
import { queryRows } from "./duckdb.js";
import { type InputFormat, sqlString } from "./inputFormat.js";

/**
 * Refuses two column names that are equal, or equal ignoring case: DuckDB matches names
 * ignoring case and renames the second one `hit5_1`, so `--metric hit5` would read `Hit5`
 * (or `--doc doc_id` read `Doc_id`) without a word. `where` follows the file's name in the
 * message (" line 1" for a CSV header); `numbered` says the message gives columns' numbers.
 */
export function refuseAlikeNames(
  names: readonly string[],
  file: string,
  where = "",
  numbered = false,
): void {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return;
    }
    const earlier = names[first] as string;
    if (earlier === name) {
      throw new RagciError(
        "invalid-value",
        `${file}${where}: column name "${name}" appears twice${numbered ? ` (columns ${first + 1} and ${i + 1})` : ""}; give each column its own name`,
        { file, column: name },
      );
    }
    const at = (index: number) => (numbered ? ` (column ${index + 1})` : "");
    throw new RagciError(
      "invalid-value",
      `${file}${where}: columns "${earlier}"${at(first)} and "${name}"${at(i)} differ only in case, and ragci's reader (DuckDB) matches column names ignoring case, so it cannot tell them apart; rename one of them`,
      { file, column: name },
    );
  });
}

/** A name DuckDB may have given a column whose name it had already seen (`hit5_1`). */
const RENAMED = /^(.*)_\d+$/;

/**
 * Whether DuckDB's column names show it renamed one: `X_1` next to a column named X (ignoring
 * case). A file may have such names of its own; the file's own names then decide.
 */
function mayHaveRenamed(columns: readonly string[]): boolean {
  const lower = new Set(columns.map((c) => c.toLowerCase()));
  return columns.some((c) => {
    const base = RENAMED.exec(c)?.[1];
    return base !== undefined && lower.has(base.toLowerCase());
  });
}

/** The top-level column names in a Parquet file's schema (its own spelling). */
async function parquetNames(connection: DuckDBConnection, path: string): Promise<string[]> {
  const rows = await queryRows(
    connection,
    `SELECT name, num_children FROM parquet_schema(${sqlString(path)})`,
  );
  // The schema is a tree in depth-first order: the root, then each column with its children.
  const names: string[] = [];
  let at = 1;
  const skip = (): void => {
    const children = Number(rows[at]?.num_children ?? 0);
    at++;
    for (let k = 0; k < children; k++) skip();
  };
  const columns = Number(rows[0]?.num_children ?? 0);
  for (let k = 0; k < columns && at < rows.length; k++) {
    names.push(String(rows[at]?.name));
    skip();
  }
  return names;
}

/** Rows DuckDB's JSON reader samples to find the columns (its `sample_size` default). */
const JSON_SAMPLE_ROWS = 20480;

/** The keys of the objects DuckDB's JSON reader samples, sorted (so messages do not vary). */
async function jsonKeys(connection: DuckDBConnection, path: string): Promise<string[]> {
  const rows = await queryRows(
    connection,
    `SELECT DISTINCT unnest(json_keys(json)) AS k FROM (SELECT json FROM read_ndjson_objects(${sqlString(path)}) LIMIT ${JSON_SAMPLE_ROWS}) ORDER BY k`,
  );
  return rows.map((r) => String(r.k));
}

/** A compressed CSV or TSV file's header: its first record, read by DuckDB as values. */
async function compressedHeader(
  connection: DuckDBConnection,
  path: string,
  format: "csv" | "tsv",
): Promise<string[]> {
  const rows = await queryRows(
    connection,
    `SELECT * FROM read_csv(${sqlString(path)}, header = false, delim = '${format === "tsv" ? "\t" : ","}', all_varchar = true) LIMIT 1`,
  );
  return Object.values(rows[0] ?? {}).map((v) => String(v ?? "").trim());
}

/**
 * For JSON lines, Parquet and compressed CSV or TSV, whose names DuckDB renames before ragci
 * sees them: when the names DuckDB gives look renamed, reads the file's own names and refuses
 * names alike. (A plain CSV or TSV header is checked as read from the file, by
 * checkDelimitedLayout.)
 */
export async function checkReaderNames(
  connection: DuckDBConnection,
  path: string,
  format: InputFormat,
  file: string,
  columns: readonly string[],
): Promise<void> {
  const compressed = /\.(gz|zst)$/i.test(path);
  if ((format === "csv" || format === "tsv") && !compressed) return;
  if (!mayHaveRenamed(columns)) return;
  const names =
    format === "parquet"
      ? await parquetNames(connection, path)
      : format === "jsonl"
        ? await jsonKeys(connection, path)
        : await compressedHeader(connection, path, format);
  // A header's columns are numbered as in the file; JSON keys have no order to number.
  const header = format === "csv" || format === "tsv";
  refuseAlikeNames(names, file, header ? " line 1" : "", header);
}
