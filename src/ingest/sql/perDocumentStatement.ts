import { compareCodePoints } from "../../core/aggregate/mergeDocumentStats.js";
import { type OptionName, optionRef, RagciError } from "../../core/errors.js";
import { parseSystemSelection } from "../selection.js";
import { dialect } from "./dialects.js";
import { perDocumentSql } from "./perDocumentSql.js";

/** What `ragci sql` prints the per-document statement for (its flags, by their library names). */
export interface PerDocumentStatementOptions {
  /** One of DIALECTS. */
  readonly dialect: string;
  /** The table of per-query results, or … */
  readonly table?: string;
  /** … a SELECT giving them. */
  readonly sql?: string;
  readonly doc: string;
  readonly metric?: readonly string[];
  /** COLUMN, or COLUMN=A,B to keep those systems (parseSystemSelection). */
  readonly system?: string;
  /** A query repeated for a system fails the statement. */
  readonly query?: string;
  /** With two systems and `query`: the per-query differences B − A too. */
  readonly pair?: boolean;
  /** With `pair`: keep the queries both systems have instead of failing on the others. */
  readonly intersect?: boolean;
  /** A per-document column carried into the table (a design's stratum or psu). */
  readonly label?: string;
}

const refuse = (message: string, option: OptionName) =>
  new RagciError("invalid-option", message, { option });

/**
 * The SQL that turns per-query rows into the per-document table in the database (what
 * `ragci sql` prints, without the final semicolon), its options checked together.
 *
 * @throws RagciError naming the option to change
 */
export function perDocumentStatement(options: PerDocumentStatementOptions): string {
  const d = dialect(options.dialect);
  const [table, sql, metric, intersect, pair, system, query] = (
    ["table", "sql", "metric", "intersect", "pair", "system", "query"] as const
  ).map((name) => optionRef(name));
  if ((options.table === undefined) === (options.sql === undefined))
    throw refuse(`give the rows with ${table} NAME or ${sql} "SELECT …" (one of them)`, "table");
  if (!options.metric || options.metric.length === 0)
    throw refuse(`name the metric column(s) with ${metric} (e.g. ${metric} hit5,rr)`, "metric");
  const selected = parseSystemSelection(options.system);
  if (options.intersect && !options.pair)
    throw refuse(`${intersect} goes with ${pair} (two systems joined on ${query})`, "pair");
  let pairs: [string, string][] | null = null;
  if (options.pair) {
    const values = selected?.systems;
    if (values?.length !== 2 || !options.query) {
      throw refuse(
        `${pair} needs two systems and the query they are joined on: ${system} COL=A,B ${query} COL`,
        "pair",
      );
    }
    pairs = [[...values].sort(compareCodePoints) as [string, string]];
  }
  return perDocumentSql(d, {
    source: options.table !== undefined ? { table: options.table } : { sql: options.sql as string },
    doc: options.doc,
    metrics: options.metric,
    system: selected?.systemColumn ?? null,
    systems: selected?.systems ?? null,
    query: options.query ?? null,
    pairs,
    intersect: options.intersect ?? false,
    label: options.label ?? null,
  });
}
