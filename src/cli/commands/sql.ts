import type { Command } from "commander";
import {
  DIALECTS,
  type PerDocumentStatementOptions,
  perDocumentStatement,
} from "../../ingest/index.js";
import type { CommandIo } from "../io.js";
import {
  withDocOption,
  withIntersectOption,
  withLabelOption,
  withMetricOption,
  withQueryOption,
  withStatementRowsOptions,
  withSystemOption,
} from "../options.js";

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
  const command = program
    .command("sql")
    .description(
      "print the SQL that turns per-query rows into the per-document table, in the database",
    )
    .requiredOption("--dialect <name>", `one of ${DIALECTS.join(", ")}`);
  withDocOption(withStatementRowsOptions(command), true);
  withQueryOption(
    withSystemOption(withMetricOption(command, "columns"), "each"),
    "statement",
  ).option("--pair", "with --system COL=A,B and --query: the per-query differences B − A too");
  withLabelOption(withIntersectOption(command, "statement"))
    .addHelpText("after", EXAMPLES)
    .action((options: PerDocumentStatementOptions) => {
      io.stdout(`${perDocumentStatement(options)};\n`);
    });
}
