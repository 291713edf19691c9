import type { Command } from "commander";
import { RagciError } from "../core/errors.js";
import { readPostgres } from "../ingest/sql/readPostgres.js";
import type { SqlSource } from "../ingest/sql/sourceRowsSql.js";
import type { CommandIo } from "./io.js";
import type { LoadedInput } from "./loadInput.js";
import { parseSystemOption, pickSystems } from "./systemFilter.js";

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
      "read through a database, aggregating there: postgresql://user@host/db (password from PGPASSWORD or the URL; never shown)",
    )
    .option("--table <name>", "with --from: the table of per-query results")
    .option("--sql <select>", "with --from: a SELECT giving the per-query results");
}

/**
 * Files, or --from with one of --table and --sql; --from reads PostgreSQL only for now.
 *
 * @throws RagciError on any other combination, naming what to give
 */
export function checkSources(files: readonly string[], options: DatabaseOptions): void {
  if (options.from === undefined) {
    if (options.table !== undefined || options.sql !== undefined)
      throw new RagciError("invalid-option", "--table and --sql go with --from URL");
    if (files.length === 0)
      throw new RagciError("invalid-option", "give the results files, or --from URL --table T");
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
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(options.from)?.[1]?.toLowerCase();
  if (scheme !== "postgresql" && scheme !== "postgres") {
    throw new RagciError(
      "invalid-option",
      `--from ${scheme ? `${scheme}:…` : "URL"}: only PostgreSQL (postgresql://…) is read directly for now; for another warehouse run the SQL of \`ragci sql --dialect NAME\` there and analyse its result with --aggregated`,
    );
  }
}

/**
 * The per-document table of the --from source: the GROUP BY and the row checks run in
 * PostgreSQL, only K rows per system × metric come back, and they are read as --aggregated.
 */
export async function loadFromDatabase(
  options: DatabaseOptions & {
    readonly doc?: string;
    readonly metric?: string[];
    readonly system?: string;
    readonly aggregated?: boolean;
  },
  io: CommandIo,
  designColumn: string | null,
): Promise<LoadedInput> {
  if (options.aggregated)
    throw new RagciError(
      "invalid-option",
      "--from aggregates in the database; leave out --aggregated",
    );
  if (designColumn !== null)
    throw new RagciError(
      "invalid-option",
      "--from does not carry a design's stratum or psu yet; use ragci sql and --aggregated, or a file",
    );
  if (!options.metric || options.metric.length === 0)
    throw new RagciError("invalid-option", "--from: name the metric column(s) with --metric");
  const system = parseSystemOption(options.system);
  const source: SqlSource =
    options.table !== undefined ? { table: options.table } : { sql: options.sql as string };
  io.progress.update("aggregating in PostgreSQL…");
  const read = await readPostgres({
    url: options.from as string,
    source,
    doc: options.doc ?? null,
    metrics: options.metric,
    system: system?.column ?? null,
    systems: system?.values ?? null,
  });
  return {
    table: { ...read.table, groups: pickSystems(read.table.groups, system, read.name) },
    description: {
      file: read.name,
      sha256: read.sqlSha256,
      format: "postgres",
      rows: read.rowsReturned,
      kind: "per-document",
    },
  };
}
