import type { DuckDBConnection } from "@duckdb/node-api";
import { optionRef, RagciError } from "../core/errors.js";
import { checkDelimitedLayout, checkInputFile } from "./checkInput.js";
import { csvReadRefusal } from "./csvReadError.js";
import { checkReaderNames } from "./distinctColumnNames.js";
import { queryRows, unreadable } from "./duckdb.js";
import { type InputFormat, tableFunction } from "./inputFormat.js";
import { checkJsonLinesStart, explainJsonLines } from "./jsonLinesProblem.js";
import { findColumn, QUERY_COLUMN_CANDIDATES } from "./resolveColumns.js";
import { checkTextEncoding } from "./textEncoding.js";

export interface InputColumn {
  readonly name: string;
  /** DuckDB's type for the column, as its sniffer reads the file. */
  readonly type: string;
}

/** DuckDB column types that hold numbers (a metric's candidates). */
export const NUMERIC_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL.*|BOOLEAN)$/;

/**
 * The columns of an input file, after checking it is a non-empty file and, for CSV/TSV, that
 * its header has no repeated name (nor two equal ignoring case: distinctColumnNames) and its
 * rows line up (naming the first line that does not); for JSON Lines, that it is not a JSON
 * array, and on failure the first line that is not JSON.
 */
export async function describeColumns(
  connection: DuckDBConnection,
  path: string,
  format: InputFormat,
  file: string,
): Promise<InputColumn[]> {
  await checkInputFile(path, file);
  await checkTextEncoding(path, file, format);
  await checkJsonLinesStart(path, file, format);
  let columns: InputColumn[];
  try {
    const rows = await queryRows(
      connection,
      `DESCRIBE SELECT * FROM ${tableFunction(path, format)}`,
    );
    columns = rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  } catch (error) {
    const known = csvReadRefusal(file, error);
    if (known) throw known;
    await checkDelimitedLayout(path, file, format, []);
    const json = await explainJsonLines(path, file, format);
    if (json) throw json;
    throw unreadable(file, error);
  }
  const names = columns.map((c) => c.name);
  await checkDelimitedLayout(path, file, format, names);
  await checkReaderNames(connection, path, format, file, names);
  return columns;
}

/**
 * The metric when none is named: the only numeric column that is not an id, a query id or a
 * rank.
 *
 * @throws RagciError "missing-column" listing the numeric candidates
 */
export function defaultMetric(
  columns: readonly InputColumn[],
  excluded: readonly string[],
  file: string,
): string {
  const skip = new Set([...excluded, "rank"]);
  const numeric = columns.filter((c) => NUMERIC_TYPE.test(c.type) && !skip.has(c.name));
  const candidates = numeric.filter((c) => findColumn(QUERY_COLUMN_CANDIDATES, [c.name]) === null);
  if (candidates.length === 1) return (candidates[0] as { name: string }).name;
  throw new RagciError(
    "missing-column",
    `${file}: name the metric with ${optionRef("metric")} (numeric columns: ${candidates.map((c) => c.name).join(", ") || "none"})`,
    { file, option: "metric" },
  );
}
