import { withDuckDb } from "./duckdb.js";
import { inputFormat, tableFunction } from "./inputFormat.js";
import { describeColumns } from "./readResults.js";

/** The column names of an input file, as DuckDB reads them (one DESCRIBE, no scan). */
export async function inputColumns(
  file: string,
  format: string | null,
  displayName = file,
): Promise<string[]> {
  return withDuckDb(async (connection) =>
    (
      await describeColumns(connection, tableFunction(file, inputFormat(file, format)), displayName)
    ).map((c) => c.name),
  );
}
