import type { Command } from "commander";
import type { CommandIo } from "../io.js";
import { withDocOption, withMetricOption, withSystemOption } from "../options.js";
import { perDocumentTableCommand } from "../perDocumentTable.js";

const EXAMPLES = `
Examples:
  $ ragci merge a.parquet b.parquet -o all.parquet       # shards of separate runs or of a warehouse job
  $ ragci merge part-*.csv -o all.csv --metric hit5       # keep one metric
  $ ragci analyze all.parquet --aggregated --system system

Each input is a per-document table (system, metric, doc, n, s[, ss][, min, max]), as written
by ragci aggregate, analyze --write-aggregates or the SQL of ragci sql. Rows of the same
system × metric × document are added (n, s and ss are sums; min and max combine), so the
merged table gives the same analysis as one pass over all the per-query rows. A metric that
is 0/1 in one table and a score in another is refused.`;

export function registerMerge(program: Command, io: CommandIo): void {
  const command = program
    .command("merge")
    .description("add per-document tables (shards) into one, as CSV or Parquet")
    .argument("<files...>", "per-document tables (CSV, TSV, JSONL, Parquet; - for stdin)");
  withSystemOption(withMetricOption(withDocOption(command), "names"), "table");
  perDocumentTableCommand(command, EXAMPLES, true, io);
}
