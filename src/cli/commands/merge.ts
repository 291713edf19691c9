import type { Command } from "commander";
import type { CommandIo } from "../io.js";
import { parseList, parseThreads } from "../options.js";
import { type PerDocumentOptions, writePerDocumentTable } from "../perDocumentTable.js";

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
  program
    .command("merge")
    .description("add per-document tables (shards) into one, as CSV or Parquet")
    .argument("<files...>", "per-document tables (CSV, TSV, JSONL, Parquet; - for stdin)")
    .option("--doc <column>", "document id column (default: doc_id, doc, document_id or document)")
    .option("--metric <names>", "keep only these metrics", parseList)
    .option(
      "--system <column[=values]>",
      "system column (default: system); COLUMN=A,B keeps those systems",
    )
    .option(
      "--format <format>",
      "csv, tsv, jsonl or parquet (default: from the extension; needed for -)",
    )
    .option("--label <column>", "a per-document column to keep (a design's stratum or psu)")
    .option("--threads <n>", "DuckDB threads (default: all cores)", parseThreads)
    .option(
      "-o, --output <file>",
      "write the table (.csv or .parquet) atomically instead of CSV to stdout",
    )
    .addHelpText("after", EXAMPLES)
    .action(async (files: string[], options: PerDocumentOptions) => {
      await writePerDocumentTable(files, options, true, io);
    });
}
