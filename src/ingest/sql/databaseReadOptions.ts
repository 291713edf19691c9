import { optionRef, RagciError } from "../../core/errors.js";
import type { InputDescription } from "../inputDescription.js";
import type { Selection } from "../selection.js";
import type { DatabaseSource } from "../source.js";
import { parseDatabaseUrl, WAREHOUSES } from "./databaseUrl.js";
import type { DatabaseRead, ReadDatabaseOptions } from "./readDatabase.js";
import type { SqlSource } from "./sourceRowsSql.js";

/**
 * The database reader's options every read of a DatabaseSource shares; `documentLabel` is the
 * design's stratum or psu column, carried per document through the database's GROUP BY.
 *
 * @throws RagciError without metrics (a database's columns are not guessed), or without
 * exactly one of table and sql
 */
export function databaseReadOptions(
  source: DatabaseSource,
  selection: Selection,
  documentLabel: string | null,
): Omit<ReadDatabaseOptions, "metrics"> & { readonly metrics: readonly string[] } {
  if (!selection.metrics || selection.metrics.length === 0)
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")}: name the metric column(s) with ${optionRef("metric")}`,
      { option: "metric" },
    );
  if ((source.table === undefined) === (source.sql === undefined))
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} needs the rows: ${optionRef("table")} NAME or ${optionRef("sql")} "SELECT …" (one of them)`,
      { option: "table" },
    );
  const rows: SqlSource =
    source.table !== undefined ? { table: source.table } : { sql: source.sql as string };
  return {
    url: source.url,
    env: source.env,
    source: rows,
    doc: source.doc ?? null,
    metrics: selection.metrics,
    documentLabel,
  };
}

/** A report's description of a database input: the statement's digest and the K rows. */
export function describedInput(read: DatabaseRead<unknown>): InputDescription {
  return {
    file: read.name,
    sha256: read.sqlSha256,
    format: read.warehouse,
    rows: read.rowsReturned,
    kind: "per-document",
  };
}

/** The status line while the database aggregates. */
export const aggregating = (url: string): string =>
  `aggregating in ${WAREHOUSES[parseDatabaseUrl(url).warehouse].label}…`;
