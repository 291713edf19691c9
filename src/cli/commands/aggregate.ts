import type { Command } from "commander";
import type { CommandIo } from "../io.js";
import {
  withDocOption,
  withMetricOption,
  withSystemOption,
  withToolOutputOptions,
} from "../options.js";
import { perDocumentTableCommand } from "../perDocumentTable.js";

const EXAMPLES = `
Examples:
  $ ragci aggregate examples/covidqa-retrieval.csv --metric hit5,rr --system system -o perdoc.parquet
  $ ragci aggregate shard-1.csv shard-2.csv --doc doc --metric hit -o perdoc.csv   # shards added per document
  $ ragci aggregate results.jsonl --metric rr > perdoc.csv                        # CSV on stdout without -o
  $ ragci analyze perdoc.parquet --aggregated --system system                     # then analyse the table

The per-document table has one row per system × metric × document: system, metric, doc, n
(results), s (their sum), ss (their sum of squares), min and max (the range of single
results). It is the input of --aggregated and of ragci merge; a metric that is 0/1 in one
shard and a score in another is refused.`;

export function registerAggregate(program: Command, io: CommandIo): void {
  const command = withToolOutputOptions(program.command("aggregate"))
    .description(
      "per-query results → the per-document table (n, Σx, Σx², min, max), as CSV or Parquet",
    )
    .argument(
      "<files...>",
      "per-query results (CSV, TSV, JSONL, Parquet; - for stdin); shards are added",
    );
  withSystemOption(withMetricOption(withDocOption(command), "columns"), "each");
  perDocumentTableCommand(command, EXAMPLES, false, io);
}
