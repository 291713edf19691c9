import { type OptionName, optionRef, RagciError } from "../core/errors.js";
import { parseDatabaseUrl } from "./sql/databaseUrl.js";

/** Where rows come from, as options: files, or a database `url` with `table` or `sql`. */
export interface SourceChoice {
  readonly url?: string | undefined;
  readonly table?: string | undefined;
  readonly sql?: string | undefined;
  readonly aggregated?: boolean | undefined;
  readonly format?: string | undefined;
  /** Facets (reruns, judges, wordings): a database's are read by analyze, compare and plan (readDatabaseFacetCells.ts). */
  readonly trial?: string | undefined;
  readonly judge?: string | undefined;
  readonly variant?: string | undefined;
}

const refuse = (message: string, option: OptionName) =>
  new RagciError("invalid-option", message, { option });

/**
 * Files, or `url` with one of `table` and `sql` and a URL of a warehouse ragci reads (and none
 * of the options that describe a file). `needed` names the files in the message when neither is
 * given; null when the caller can do without (a plan from a given sd).
 *
 * @throws RagciError on any other combination, naming what to give
 */
export function checkSource(
  files: readonly string[],
  options: SourceChoice,
  needed: string | null = "the results files",
): void {
  const [url, table, sql, aggregated, format] = (
    ["url", "table", "sql", "aggregated", "format"] as const
  ).map((name) => optionRef(name));
  if (options.url === undefined) {
    if (options.table !== undefined || options.sql !== undefined)
      throw refuse(`${table} and ${sql} go with ${url} URL`, "url");
    if (files.length === 0 && needed !== null)
      throw refuse(`give ${needed}, or ${url} URL ${table} T`, "url");
    return;
  }
  if (files.length > 0) throw refuse(`give either files or ${url}, not both`, "url");
  if ((options.table === undefined) === (options.sql === undefined))
    throw refuse(
      `${url} needs the rows: ${table} NAME or ${sql} "SELECT …" (one of them)`,
      "table",
    );
  parseDatabaseUrl(options.url);
  if (options.aggregated)
    throw refuse(`${url} aggregates in the database; leave out ${aggregated}`, "aggregated");
  if (options.format !== undefined)
    throw refuse(`${format} describes a file; leave it out with ${url}`, "format");
}
