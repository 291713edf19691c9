import { optionRef, RagciError } from "../core/errors.js";
import { type EvalResultsFile, evalResultsFile } from "./evalFormats/evalResultsFile.js";
import { evalFormatOf } from "./evalFormats/readEvalContent.js";
import { hasFacets } from "./facetRequest.js";
import type { InputDescription } from "./inputDescription.js";
import { inputFormat } from "./inputFormat.js";
import { readAggregates } from "./readAggregates.js";
import { type FacetRead, readFacetCells, type SystemFacetCells } from "./readFacetCells.js";
import { type ResultsTable, readResults } from "./readResults.js";
import { pickSystems, type Selection } from "./selection.js";
import { sha256File } from "./sha256File.js";
import type { Shard } from "./shardOverlap.js";
import type { FilesSource, ReadOptions } from "./source.js";
import { refuseToolOutput, spoolSource } from "./spoolSource.js";
import { refuseToolFlagsOnTable, toolReadOptions } from "./toolReadOptions.js";

/** One input's per-document tables (of the selected systems) and how a report describes it. */
export interface TableRead {
  readonly table: ResultsTable;
  readonly description: InputDescription;
  /** The file as a shard to check for queries shared with the others; null: not checkable. */
  readonly shard: Shard | null;
  /** The tool's run the input holds (an evaluation tool that records one), else null. */
  readonly run: string | null;
  /** With facets (trial, judge, variant): each system × metric's per-cell sums. */
  readonly cells?: readonly SystemFacetCells[];
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
  let faceted: FacetRead | null = null;
  try {
    // A per-document table asked for (--aggregated, merge): a tool's output is refused naming
    // the input as given and what to run instead, not sent to DuckDB as a malformed table.
    if (source.aggregated)
      await refuseToolOutput(path, displayName, source, options.usedBy ?? null);
    options.progress?.status(`reading ${displayName}…`);
    const tool = source.aggregated ? null : await evalFormatOf(path, source.format ?? null);
    if (!tool) refuseToolFlagsOnTable(source, displayName);
    const scan = options.progress?.scan;
    converted = tool
      ? await evalResultsFile([{ path, file: displayName }], {
          ...(await toolReadOptions(source, tool, metrics)),
          ...(scan ? { progress: scan } : {}),
        })
      : null;
    faceted = await facetCellsOf(path, displayName, converted, source, selection);
    const common = {
      // With facets, the file averaged per query (readFacetCells.ts) is what is aggregated.
      file: faceted?.averagedPath ?? converted?.path ?? path,
      displayName,
      format: faceted ? "parquet" : converted ? "jsonl" : (source.format ?? null),
      doc: converted ? "doc" : (source.doc ?? null),
      metrics: converted ? converted.metrics : metrics,
      system: selection.systemColumn ?? (converted ? "system" : null),
      // An evaluation tool's rows carry the query id as query_id.
      query: faceted
        ? faceted.queryColumn
        : source.query
          ? converted
            ? "query_id"
            : source.query
          : null,
      ...(source.threads ? { threads: source.threads } : {}),
      valuesUpTo: options.valuesUpTo ?? 0,
      documentLabel: options.documentLabel ?? null,
      aggregatedOption: options.aggregatedOption,
      ...(scan ? { onProgress: scan.bind(null, displayName) } : {}),
    };
    const [read, sha256] = await Promise.all([
      source.aggregated
        ? readAggregates({
            ...common,
            addRepeatedDocuments: options.addRepeatedDocuments ?? false,
          })
        : readResults(common),
      sha256File(path, displayName),
    ]);
    const table = {
      ...read,
      groups: pickSystems(read.groups, selection, displayName),
      notices: [
        ...spooled.notes,
        ...(converted?.notes ?? []),
        ...(faceted?.notices ?? []),
        ...read.notices,
      ],
    };
    // A copied pipe is gone once read, so only a file read in place is checked as a shard.
    const plainFile = path === file && converted === null && !source.aggregated;
    // With facets the table was read from the averaged copy; the input is the file given.
    const format = faceted && !converted ? inputFormat(path, source.format) : table.format;
    return {
      table,
      ...(faceted ? { cells: pickSystems(faceted.cells, selection, displayName) } : {}),
      run: converted?.runs[0] ?? null,
      shard: plainFile
        ? {
            path,
            file: displayName,
            format,
            query: faceted?.queryColumn ?? table.queryColumn ?? null,
            system: table.systemColumn,
          }
        : null,
      description: {
        file: displayName,
        sha256,
        format: converted?.tools[0] ?? format,
        rows: source.aggregated
          ? table.groups
              .filter((g) => g.metric === table.metrics[0])
              .reduce((t, g) => t + g.stats.ids.length, 0)
          : (faceted?.rows ?? table.rows),
        kind: source.aggregated ? "per-document" : "per-query",
      },
    };
  } finally {
    await faceted?.cleanup();
    await converted?.cleanup();
    await spooled.cleanup();
  }
}

/**
 * With facets (trial, judge, variant) asked for, the file's per-cell sums and the file averaged
 * per query; null without. An evaluation tool's output carries them as columns trial, judge,
 * variant (evalResultsFile.ts).
 */
export async function facetCellsOf(
  path: string,
  file: string,
  converted: EvalResultsFile | null,
  source: FilesSource,
  selection: Selection,
  systemName: string | null = null,
): Promise<FacetRead | null> {
  if (!hasFacets(source)) return null;
  if (source.aggregated)
    throw new RagciError(
      "invalid-option",
      `${file}: facets (${optionRef("trial")}, ${optionRef("judge")}, ${optionRef("variant")}) are read from per-query results, not per-document tables; leave out ${optionRef("aggregated")}`,
      { file, option: "aggregated" },
    );
  const column = (asked: string | null | undefined, name: "trial" | "judge" | "variant") =>
    asked ? (converted ? name : asked) : null;
  return readFacetCells({
    path: converted?.path ?? path,
    file,
    format: converted ? "jsonl" : inputFormat(path, source.format),
    doc: converted ? "doc" : (source.doc ?? null),
    query: converted ? "query_id" : (source.query ?? null),
    system: selection.systemColumn ?? (converted ? "system" : null),
    systemName,
    metrics: converted ? converted.metrics : (selection.metrics ?? null),
    trial: column(source.trial, "trial"),
    judge: column(source.judge, "judge"),
    variant: column(source.variant, "variant"),
    ...(source.threads ? { threads: source.threads } : {}),
  });
}
