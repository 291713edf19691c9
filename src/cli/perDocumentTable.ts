import type { Command } from "commander";
import { RagciError } from "../core/errors.js";
import {
  aggregatesCsv,
  readPerDocumentTable,
  refuseUnsafeOutputs,
  writeAggregates,
} from "../ingest/index.js";
import { perDocumentTableSummary } from "../report/perDocumentTableSummary.js";
import { withFlags } from "./flagHints.js";
import type { CommandIo } from "./io.js";
import {
  withFormatOption,
  withLabelOption,
  withOutputOption,
  withThreadsOption,
} from "./options.js";
import { readingProgress } from "./readingProgress.js";
import { selectionOf, sourceOf } from "./sourceOptions.js";

/** The flags of `ragci aggregate` and `ragci merge`. */
export interface PerDocumentOptions {
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly format?: string;
  readonly threads?: number;
  /** aggregate: how to read evaluation tools' outputs (see withToolOutputOptions). */
  readonly docMap?: string;
  readonly qrels?: string;
  readonly completeQueries?: boolean;
  readonly errorsAsFailures?: boolean;
  /** A per-document column to carry (a design's stratum or psu), one value per document. */
  readonly label?: string;
  readonly output?: string;
}

/**
 * The flags aggregate and merge end with (--format, --label, --threads, -o), the examples, and
 * the action: the inputs, per-query (aggregate) or per-document tables (merge), become one table.
 */
export function perDocumentTableCommand(
  command: Command,
  examples: string,
  aggregated: boolean,
  io: CommandIo,
): Command {
  // merge reads per-document tables; aggregate, tables or tools' outputs.
  withLabelOption(withFormatOption(command, aggregated ? "tables" : "inputs"));
  return withOutputOption(withThreadsOption(command, "files"), "table")
    .addHelpText("after", examples)
    .action(async (files: string[], options: PerDocumentOptions) => {
      await writePerDocumentTable(files, options, aggregated, io);
    });
}

/** -o names the format: .csv, or .parquet (.pq). */
function checkOutputName(target: string): void {
  if (!/\.(csv|parquet|pq)$/i.test(target)) {
    throw new RagciError(
      "invalid-option",
      `-o ${target}: the name must end in .csv or .parquet (the format is taken from it)`,
    );
  }
}

/**
 * `ragci aggregate` and `ragci merge`: ingest's readPerDocumentTable, written as `system,
 * metric, doc, n, s, ss, min, max` — to -o (CSV or Parquet, atomically, never onto an input) or
 * as CSV to stdout.
 */
async function writePerDocumentTable(
  files: readonly string[],
  options: PerDocumentOptions,
  aggregated: boolean,
  io: CommandIo,
): Promise<void> {
  if (files.filter((f) => f === "-").length > 1)
    throw new RagciError("invalid-option", "stdin (-) can be read only once");
  const selection = selectionOf(options);
  if (options.output) {
    checkOutputName(options.output);
    const inputs = [...files, options.docMap, options.qrels].filter((f) => f !== undefined);
    await refuseUnsafeOutputs(inputs, [{ flag: "-o", path: options.output }]);
  }
  const label = options.label ?? null;
  const source = sourceOf(files, { ...options, aggregated }, io);
  const { groups, inexact, notices } = await readPerDocumentTable(source, selection, {
    label,
    progress: readingProgress(io),
    usedBy: aggregated ? "merge" : "aggregate",
  });
  io.progress.done();
  // What the readers did that the user did not ask for (rows left out, systems split) is said
  // on standard error, as analyze's report says it: the table itself has no room for notes.
  for (const notice of notices) io.stderr?.(`! ${withFlags(notice)}\n`);
  if (options.output) {
    await writeAggregates(options.output, groups, label);
    io.stdout(perDocumentTableSummary(options.output, groups, inexact));
  } else io.stdout(aggregatesCsv(groups, label));
}
