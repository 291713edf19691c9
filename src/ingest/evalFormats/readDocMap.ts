import { RagciError } from "../../core/errors.js";
import { describeColumns } from "../describeColumns.js";
import { queryRows, withDuckDb } from "../duckdb.js";
import { inputFormat, tableFunction } from "../inputFormat.js";
import { textOf } from "../normalizedRows.js";
import { documentColumn, queryColumn } from "../resolveColumns.js";
import { spoolSource } from "../spoolSource.js";

/**
 * --doc-map: which document each query comes from, for outputs that carry no document
 * (trec_eval). A table (CSV, TSV, JSONL, Parquet) with a query id and a document column.
 *
 * @throws RagciError for a query listed under two documents
 */
export async function readDocMap(file: string): Promise<Map<string, string>> {
  // A pipe (--doc-map <(…)) is copied first; the copy keeps the name's extension or gets the
  // format from its content.
  const source = await spoolSource(file);
  try {
    return await readMap(source.path, file);
  } finally {
    await source.cleanup();
  }
}

async function readMap(path: string, file: string): Promise<Map<string, string>> {
  const format = inputFormat(path);
  return withDuckDb(async (connection) => {
    const names = (await describeColumns(connection, path, format, file)).map((c) => c.name);
    const query = queryColumn(null, names, file);
    const doc = documentColumn(null, names, file);
    const rows = await queryRows(
      connection,
      `SELECT ${textOf(query)} AS q, min(${textOf(doc)}) AS d, count(DISTINCT ${textOf(doc)}) AS k FROM ${tableFunction(path, format)} GROUP BY ALL`,
    );
    const split = rows.find((r) => Number(r.k) > 1);
    if (split)
      throw new RagciError(
        "invalid-value",
        `${file}: query ${split.q} is under more than one document; a query belongs to one document`,
        { file },
      );
    return new Map(
      rows.filter((r) => r.q !== null && r.d !== null).map((r) => [String(r.q), String(r.d)]),
    );
  });
}
