import type { Command } from "commander";
import { compareCodePoints } from "../../core/aggregate/mergeDocumentStats.js";
import { RagciError } from "../../core/errors.js";
import {
  DIALECTS,
  dialect,
  parseSystemSelection,
  perDocumentSql,
  type SqlSource,
} from "../../ingest/index.js";
import type { CommandIo } from "../io.js";
import { parseList } from "../options.js";

interface SqlCommandOptions {
  readonly dialect: string;
  readonly table?: string;
  readonly sql?: string;
  readonly doc: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly query?: string;
  readonly pair?: boolean;
  readonly intersect?: boolean;
  readonly label?: string;
}

const EXAMPLES = `
Examples:
  $ ragci sql --dialect postgres --table results --doc doc_id --metric hit5,rr --system system
  $ ragci sql --dialect bigquery --table proj.eval.results --doc doc_id --metric hit5
  $ ragci sql --dialect duckdb --sql "SELECT * FROM 'results.parquet'" --doc doc_id --metric hit5 --system system=bm25,tfidf --query query_id --pair
  $ psql "$DB" --csv -c "$(ragci sql --dialect postgres --table results --doc doc_id --metric hit5)" > perdoc.csv
  $ ragci analyze perdoc.csv --aggregated
  $ ragci sql --dialect postgres --table results --doc doc_id --metric hit5 --label topic   # then:
  $ ragci analyze perdoc.csv --aggregated --design topics.json --psu topic

The statement returns the per-document table (system, metric, doc, n, s, ss, min, max), the
input of --aggregated. It first checks what ragci checks — an empty document id or system, a
NULL, NaN or infinite metric, and with --query a query repeated for a system (and, with
--pair, a query under two documents or of one system only) — and fails with ragci's message
when a check does not pass. A value that is not a number fails the CAST in the database.
--label COL adds COL to each row (one value per document: an empty one, or a document with two,
fails the statement).
--pair adds, for two systems COL=A,B joined on --query, the rows "B - A" of the per-query
differences, as compare needs; with --intersect a query of one system only is left out (as
compare --intersect does) instead of failing the statement. Sums are exact where the dialect
can (docs/databases.md).`;

export function registerSql(program: Command, io: CommandIo): void {
  program
    .command("sql")
    .description(
      "print the SQL that turns per-query rows into the per-document table, in the database",
    )
    .requiredOption("--dialect <name>", `one of ${DIALECTS.join(", ")}`)
    .option("--table <name>", "the table of per-query results (schema.table parts are quoted)")
    .option("--sql <select>", "or a SELECT giving the per-query results")
    .requiredOption("--doc <column>", "document id column")
    .option("--metric <columns>", "metric column(s), comma-separated", parseList)
    .option("--system <column[=values]>", "system column; COLUMN=A,B keeps those systems")
    .option("--query <column>", "query id column: a query repeated for a system is refused")
    .option("--pair", "with --system COL=A,B and --query: the per-query differences B − A too")
    .option(
      "--intersect",
      "with --pair: keep the queries both systems have (compare --intersect) instead of failing on the others",
    )
    .option(
      "--label <column>",
      "a per-document column to carry into the table, e.g. a design's stratum or psu (for --aggregated --design)",
    )
    .addHelpText("after", EXAMPLES)
    .action((options: SqlCommandOptions) => {
      io.stdout(`${sqlStatement(options)};\n`);
    });
}

function sqlStatement(options: SqlCommandOptions): string {
  const d = dialect(options.dialect);
  if ((options.table === undefined) === (options.sql === undefined)) {
    throw new RagciError(
      "invalid-option",
      'give the rows with --table NAME or --sql "SELECT …" (one of them)',
    );
  }
  if (!options.metric || options.metric.length === 0)
    throw new RagciError(
      "invalid-option",
      "name the metric column(s) with --metric (e.g. --metric hit5,rr)",
    );
  const system = parseSystemSelection(options.system);
  const source: SqlSource =
    options.table !== undefined ? { table: options.table } : { sql: options.sql as string };
  let pairs: [string, string][] | null = null;
  if (options.intersect && !options.pair)
    throw new RagciError(
      "invalid-option",
      "--intersect goes with --pair (two systems joined on --query)",
    );
  if (options.pair) {
    const values = system?.systems;
    if (values?.length !== 2 || !options.query) {
      throw new RagciError(
        "invalid-option",
        "--pair needs two systems and the query they are joined on: --system COL=A,B --query COL",
      );
    }
    const [a, b] = [...values].sort(compareCodePoints) as [string, string];
    pairs = [[a, b]];
  }
  return perDocumentSql(d, {
    source,
    doc: options.doc,
    metrics: options.metric,
    system: system?.systemColumn ?? null,
    systems: system?.systems ?? null,
    query: options.query ?? null,
    pairs,
    intersect: options.intersect ?? false,
    label: options.label ?? null,
  });
}
