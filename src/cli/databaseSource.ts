import type { Command } from "commander";
import { RagciError } from "../core/errors.js";
import { parseDatabaseUrl, urlForms, WAREHOUSES } from "../ingest/sql/databaseUrl.js";
import type { DatabaseRead, ReadDatabaseOptions } from "../ingest/sql/readDatabase.js";
import type { SqlSource } from "../ingest/sql/sourceRowsSql.js";
import type { InputDescription } from "../report/analysisReport.js";

/** --from URL with --table T or --sql SELECT: per-query rows that stay in the database. */
export interface DatabaseOptions {
  readonly from?: string;
  readonly table?: string;
  readonly sql?: string;
}

/** Adds --from, --table and --sql to a command. */
export function withDatabaseOptions(command: Command): Command {
  return command
    .option(
      "--from <url>",
      `read through a database, aggregating there: ${urlForms()} (credentials from each client's usual environment variables; never shown)`,
    )
    .option("--table <name>", "with --from: the table of per-query results")
    .option("--sql <select>", "with --from: a SELECT giving the per-query results");
}

/**
 * Files, or --from with one of --table and --sql and a URL of a warehouse ragci reads (and
 * none of the flags that describe a file). `needed` names the files in the message when
 * neither is given; null when the command can do without (plan --sd).
 *
 * @throws RagciError on any other combination, naming what to give
 */
export function checkSources(
  files: readonly string[],
  options: DatabaseOptions & { readonly aggregated?: boolean; readonly format?: string },
  needed: string | null = "the results files",
): void {
  if (options.from === undefined) {
    if (options.table !== undefined || options.sql !== undefined)
      throw new RagciError("invalid-option", "--table and --sql go with --from URL");
    if (files.length === 0 && needed !== null)
      throw new RagciError("invalid-option", `give ${needed}, or --from URL --table T`);
    return;
  }
  if (files.length > 0)
    throw new RagciError("invalid-option", "give either files or --from, not both");
  if ((options.table === undefined) === (options.sql === undefined)) {
    throw new RagciError(
      "invalid-option",
      '--from needs the rows: --table NAME or --sql "SELECT …" (one of them)',
    );
  }
  parseDatabaseUrl(options.from);
  if (options.aggregated)
    throw new RagciError(
      "invalid-option",
      "--from aggregates in the database; leave out --aggregated",
    );
  if (options.format !== undefined)
    throw new RagciError("invalid-option", "--format describes a file; leave it out with --from");
}

/** The flags every --from read takes. */
export type FromOptions = DatabaseOptions & {
  readonly doc?: string;
  readonly metric?: readonly string[];
};

/**
 * The reader's common options, after the checks every --from read shares; `documentLabel` is
 * the design's stratum or psu column, carried per document through the database's GROUP BY.
 */
export function databaseReadOptions(
  options: FromOptions,
  documentLabel: string | null,
): Omit<ReadDatabaseOptions, "metrics"> & { readonly metrics: readonly string[] } {
  if (options.from === undefined) throw new Error("internal: a --from read without --from");
  if (!options.metric || options.metric.length === 0)
    throw new RagciError("invalid-option", "--from: name the metric column(s) with --metric");
  const source: SqlSource =
    options.table !== undefined ? { table: options.table } : { sql: options.sql as string };
  return {
    url: options.from,
    env: process.env,
    source,
    doc: options.doc ?? null,
    metrics: options.metric,
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

/** The progress line while the database aggregates. */
export const aggregating = (url: string): string =>
  `aggregating in ${WAREHOUSES[parseDatabaseUrl(url).warehouse].label}…`;
