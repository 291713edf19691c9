import { CHUNK_BOOTSTRAP_ROW_LIMIT } from "../core/bootstrap/chunkBootstrap.js";
import { RagciError } from "../core/errors.js";
import { sha256File } from "../ingest/hashInputs.js";
import { readAggregates } from "../ingest/readAggregates.js";
import { type ResultsTable, readResults } from "../ingest/readResults.js";
import type { InputDescription } from "../report/analysisReport.js";
import type { CommandIo } from "./io.js";
import { spoolStdin } from "./spoolStdin.js";
import { parseSystemOption, pickSystems } from "./systemFilter.js";

/** The flags that say how to read one results file. */
export interface InputOptions {
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly threads?: number;
  readonly replicates: number;
}

export interface LoadedInput {
  readonly table: ResultsTable;
  readonly description: InputDescription;
}

/** @throws RagciError when stdin (-) is read without --format, which it cannot be guessed from */
export function requireStdinFormat(files: readonly string[], format: string | undefined): void {
  if (files.includes("-") && !format) {
    throw new RagciError(
      "invalid-option",
      "reading from stdin (-): name the format with --format csv|tsv|jsonl|parquet",
    );
  }
}

/**
 * Reads one per-query (or, with --aggregated, per-document) file into per-document tables of
 * the chosen systems, and hashes it; stdin is spooled to a temporary file first.
 */
export async function loadInput(
  file: string,
  options: InputOptions,
  io: CommandIo,
  designColumn: string | null,
): Promise<LoadedInput> {
  const stdin = file === "-";
  requireStdinFormat([file], options.format);
  const spooled = stdin
    ? await spoolStdin(io.stdin, options.format === "jsonl" ? "jsonl" : (options.format ?? "csv"))
    : null;
  const path = spooled?.path ?? file;
  const systemOption = parseSystemOption(options.system);
  const displayName = stdin ? "stdin" : file;
  try {
    io.progress.update(`reading ${displayName}…`);
    const common = {
      file: path,
      displayName,
      format: options.format ?? null,
      doc: options.doc ?? null,
      metrics: options.metric ?? null,
      system: systemOption?.column ?? null,
      ...(options.threads ? { threads: options.threads } : {}),
      // The chunk bootstrap of a non-binary metric needs the values; past its limit it is skipped.
      valuesUpTo:
        options.replicates > 0 ? Math.floor(CHUNK_BOOTSTRAP_ROW_LIMIT / options.replicates) : 0,
      documentLabel: designColumn,
    };
    const [read, sha256] = await Promise.all([
      options.aggregated ? readAggregates(common) : readResults(common),
      sha256File(path, displayName),
    ]);
    const table = { ...read, groups: pickSystems(read.groups, systemOption, displayName) };
    return {
      table,
      description: {
        file: displayName,
        sha256,
        format: table.format,
        rows: options.aggregated
          ? table.groups
              .filter((g) => g.metric === table.metrics[0])
              .reduce((t, g) => t + g.stats.ids.length, 0)
          : table.rows,
        kind: options.aggregated ? "per-document" : "per-query",
      },
    };
  } finally {
    await spooled?.cleanup();
  }
}
