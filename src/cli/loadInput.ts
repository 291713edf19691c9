import { chunkBootstrapValuesToKeep } from "../core/resamplingBudget.js";
import { type EvalResultsFile, evalResultsFile } from "../ingest/evalFormats/evalResultsFile.js";
import { readDocMap } from "../ingest/evalFormats/readDocMap.js";
import { evalFormatOf } from "../ingest/evalFormats/readEvalContent.js";
import { requireDistinctInputs } from "../ingest/identity.js";
import { readAggregates } from "../ingest/readAggregates.js";
import { type ResultsTable, readResults } from "../ingest/readResults.js";
import { sha256File } from "../ingest/sha256File.js";
import { requireDisjointShards, type Shard } from "../ingest/shardOverlap.js";
import { spoolSource } from "../ingest/spoolSource.js";
import type { InputDescription } from "../report/analysisReport.js";
import type { DatabaseOptions } from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import { readingProgress } from "./readingProgress.js";
import { parseSystemOption, pickSystems } from "./systemFilter.js";

/** The flags that say how to read one results file. */
export interface InputOptions {
  readonly doc?: string;
  /** trec_eval: a table of query id → document. */
  readonly docMap?: string;
  /** TREC runs: the qrels file, and whether to score its queries a run lacks (trec_eval -c). */
  readonly qrels?: string;
  readonly completeQueries?: boolean;
  readonly errorsAsFailures?: boolean;
  readonly metric?: string[];
  readonly system?: string;
  /** The query id column, checked for repeats whatever the size of the input. */
  readonly query?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly threads?: number;
  readonly replicates: number;
}

export interface LoadedInput {
  readonly table: ResultsTable;
  readonly description: InputDescription;
  /** The file as a shard to check for queries shared with the others; null: not checkable. */
  readonly shard: Shard | null;
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
  // stdin and pipes are copied to a temporary file first (they can be read only once).
  const spooled = await spoolSource(file, { stdin: io.stdin, format: options.format ?? null });
  const { path, displayName } = spooled;
  const systemOption = parseSystemOption(options.system);
  let converted: EvalResultsFile | null = null;
  try {
    io.progress.update(`reading ${displayName}…`);
    const tool = options.aggregated ? null : await evalFormatOf(path, options.format ?? null);
    // An evaluation tool's output is rewritten as a per-query table (query_id, doc, system).
    converted = tool
      ? await evalResultsFile([{ path, file: displayName }], {
          format: tool,
          doc: options.doc ?? null,
          metrics: options.metric ?? null,
          docMap: options.docMap ? await readDocMap(options.docMap) : null,
          qrels: options.qrels ?? null,
          completeQueries: options.completeQueries ?? false,
          errors: options.errorsAsFailures ? "failures" : "apart",
        })
      : null;
    const onProgress = readingProgress(io, displayName);
    const common = {
      file: converted?.path ?? path,
      displayName,
      format: converted ? "jsonl" : (options.format ?? null),
      doc: converted ? "doc" : (options.doc ?? null),
      metrics: converted ? converted.metrics : (options.metric ?? null),
      system: systemOption?.column ?? (converted ? "system" : null),
      // An evaluation tool's rows carry the query id as query_id.
      query: options.query ? (converted ? "query_id" : options.query) : null,
      ...(options.threads ? { threads: options.threads } : {}),
      valuesUpTo: chunkBootstrapValuesToKeep(options.replicates),
      documentLabel: designColumn,
      ...(onProgress ? { onProgress } : {}),
    };
    const [read, sha256] = await Promise.all([
      options.aggregated ? readAggregates(common) : readResults(common),
      sha256File(path, displayName),
    ]);
    const table = {
      ...read,
      groups: pickSystems(read.groups, systemOption, displayName),
      notices: [...spooled.notes, ...(converted?.notes ?? []), ...read.notices],
    };
    // A copied pipe is gone once read, so only a file read in place is checked as a shard.
    const plainFile = path === file && converted === null && !options.aggregated;
    return {
      table,
      shard: plainFile
        ? {
            path,
            file: displayName,
            format: table.format,
            query: table.queryColumn ?? null,
            system: table.systemColumn,
          }
        : null,
      description: {
        file: displayName,
        sha256,
        format: converted?.tools[0] ?? table.format,
        rows: options.aggregated
          ? table.groups
              .filter((g) => g.metric === table.metrics[0])
              .reduce((t, g) => t + g.stats.ids.length, 0)
          : table.rows,
        kind: options.aggregated ? "per-document" : "per-query",
      },
    };
  } finally {
    await converted?.cleanup();
    await spooled.cleanup();
  }
}

/** analyze's inputs: the --from source's per-document table, then each file's, as given. */
export async function loadInputs(
  files: readonly string[],
  options: InputOptions & DatabaseOptions,
  io: CommandIo,
  designColumn: string | null,
): Promise<LoadedInput[]> {
  const loaded: LoadedInput[] = [];
  if (options.from) {
    // The database layer (the warehouses' adapters, the SQL) loads only for --from.
    const { loadFromDatabase } = await import("./loadFromDatabase.js");
    loaded.push(await loadFromDatabase(options, io, designColumn));
  }
  for (const file of files) loaded.push(await loadInput(file, options, io, designColumn));
  requireDistinctInputs(loaded.map((l) => l.description));
  const shards = loaded.flatMap((l) => (l.shard ? [l.shard] : []));
  const notices = await requireDisjointShards(shards, options.threads);
  if (notices.length === 0) return loaded;
  const last = loaded[loaded.length - 1] as LoadedInput;
  loaded[loaded.length - 1] = {
    ...last,
    table: { ...last.table, notices: [...last.table.notices, ...notices] },
  };
  return loaded;
}
