import { type EvalResultsFile, evalResultsFile } from "./evalFormats/evalResultsFile.js";
import { evalFormatOf } from "./evalFormats/readEvalContent.js";
import type { InputDescription } from "./inputDescription.js";
import { readAggregates } from "./readAggregates.js";
import { type ResultsTable, readResults } from "./readResults.js";
import { pickSystems, type Selection } from "./selection.js";
import { sha256File } from "./sha256File.js";
import type { Shard } from "./shardOverlap.js";
import type { FilesSource, ReadOptions } from "./source.js";
import { spoolSource } from "./spoolSource.js";
import { toolReadOptions } from "./toolReadOptions.js";

/** One input's per-document tables (of the selected systems) and how a report describes it. */
export interface TableRead {
  readonly table: ResultsTable;
  readonly description: InputDescription;
  /** The file as a shard to check for queries shared with the others; null: not checkable. */
  readonly shard: Shard | null;
  /** The tool's run the input holds (an evaluation tool that records one), else null. */
  readonly run: string | null;
}

/**
 * Reads one per-query (or, aggregated, per-document) file into per-document tables of the
 * selected systems, and hashes it; stdin is spooled to a temporary file first, and an
 * evaluation tool's output is rewritten as a per-query table (query_id, doc, system) first.
 */
export async function readFileTable(
  file: string,
  source: FilesSource,
  selection: Selection,
  options: ReadOptions,
): Promise<TableRead> {
  // stdin and pipes are copied to a temporary file first (they can be read only once).
  const spooled = await spoolSource(file, {
    ...(source.stdin ? { stdin: source.stdin } : {}),
    format: source.format ?? null,
  });
  const { path, displayName } = spooled;
  const metrics = selection.metrics ?? null;
  let converted: EvalResultsFile | null = null;
  try {
    options.progress?.status(`reading ${displayName}…`);
    const tool = source.aggregated ? null : await evalFormatOf(path, source.format ?? null);
    const scan = options.progress?.scan;
    converted = tool
      ? await evalResultsFile([{ path, file: displayName }], {
          ...(await toolReadOptions(source, tool, metrics)),
          ...(scan ? { progress: scan } : {}),
        })
      : null;
    const common = {
      file: converted?.path ?? path,
      displayName,
      format: converted ? "jsonl" : (source.format ?? null),
      doc: converted ? "doc" : (source.doc ?? null),
      metrics: converted ? converted.metrics : metrics,
      system: selection.systemColumn ?? (converted ? "system" : null),
      // An evaluation tool's rows carry the query id as query_id.
      query: source.query ? (converted ? "query_id" : source.query) : null,
      ...(source.threads ? { threads: source.threads } : {}),
      valuesUpTo: options.valuesUpTo ?? 0,
      documentLabel: options.documentLabel ?? null,
      ...(scan ? { onProgress: scan.bind(null, displayName) } : {}),
    };
    const [read, sha256] = await Promise.all([
      source.aggregated ? readAggregates(common) : readResults(common),
      sha256File(path, displayName),
    ]);
    const table = {
      ...read,
      groups: pickSystems(read.groups, selection, displayName),
      notices: [...spooled.notes, ...(converted?.notes ?? []), ...read.notices],
    };
    // A copied pipe is gone once read, so only a file read in place is checked as a shard.
    const plainFile = path === file && converted === null && !source.aggregated;
    return {
      table,
      run: converted?.runs[0] ?? null,
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
        rows: source.aggregated
          ? table.groups
              .filter((g) => g.metric === table.metrics[0])
              .reduce((t, g) => t + g.stats.ids.length, 0)
          : table.rows,
        kind: source.aggregated ? "per-document" : "per-query",
      },
    };
  } finally {
    await converted?.cleanup();
    await spooled.cleanup();
  }
}
