import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";
import { checkDelimitedLayout } from "./checkInput.js";
import { describeColumns, type InputColumn } from "./describeColumns.js";
import { checkReaderNames } from "./distinctColumnNames.js";
import { type InputFormat, tableFunction } from "./inputFormat.js";
import { checkJsonLinesStart } from "./jsonLinesProblem.js";
import { checkTextEncoding } from "./textEncoding.js";

/** Rows read from the start of the file: one DuckDB vector. */
const SAMPLE_ROWS = 2048;

/** An input's columns, and a look at its first rows. */
export interface SampledInput {
  readonly columns: InputColumn[];
  /** Whether the column's first rows are all 0 or 1 (false when none were read). */
  readonly zeroOneAtStart: (column: string) => boolean;
}

const isZeroOne = (value: unknown) =>
  value === 0 || value === 1 || value === 0n || value === 1n || typeof value === "boolean";

/**
 * describeColumns (the same columns, types and layout checks) and the file's first rows, from
 * one query: DuckDB sniffs a CSV's dialect and types once per query that reads it, so asking
 * for the rows costs nothing over DESCRIBE. Should reading them fail, the columns come from
 * describeColumns, with its messages.
 */
export async function sampleColumns(
  connection: DuckDBConnection,
  path: string,
  format: InputFormat,
  file: string,
): Promise<SampledInput> {
  await checkTextEncoding(path, file, format);
  await checkJsonLinesStart(path, file, format);
  let columns: InputColumn[];
  let chunks: DuckDBDataChunk[];
  try {
    const result = await connection.run(
      `SELECT * FROM ${tableFunction(path, format)} LIMIT ${SAMPLE_ROWS}`,
    );
    columns = result
      .columnNames()
      .map((name, i) => ({ name, type: result.columnType(i).toString() }));
    chunks = await result.fetchAllChunks();
  } catch {
    return {
      columns: await describeColumns(connection, path, format, file),
      zeroOneAtStart: () => false,
    };
  }
  const names = columns.map((c) => c.name);
  await checkDelimitedLayout(path, file, format, names);
  await checkReaderNames(connection, path, format, file, names);
  return {
    columns,
    zeroOneAtStart: (column) => {
      const at = columns.findIndex((c) => c.name === column);
      if (at < 0 || chunks.every((chunk) => chunk.rowCount === 0)) return false;
      return chunks.every((chunk) => chunk.getColumnValues(at).every(isZeroOne));
    },
  };
}
