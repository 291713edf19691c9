import type { ComparisonMode } from "../core/comparisonPairs.js";
import { RagciError } from "../core/errors.js";
import { type EvalResultsFile, evalResultsFile } from "./evalFormats/evalResultsFile.js";
import { evalFormatOf } from "./evalFormats/readEvalContent.js";
import { fileSystemName } from "./fileSystemNames.js";
import type { InputDescription } from "./inputDescription.js";
import { inputFormat } from "./inputFormat.js";
import type { FacetRead, SystemFacetCells } from "./readFacetCells.js";
import { facetCellsOf } from "./readFileTables.js";
import { readPairedAggregates } from "./readPairedAggregates.js";
import { type PairedTable, readPairedResults } from "./readPairedResults.js";
import { pairChoice, type Selection } from "./selection.js";
import { sha256File } from "./sha256File.js";
import type { FilesSource, ReadOptions, ReadProgress } from "./source.js";
import { refuseToolOutput, spoolSources } from "./spoolSource.js";
import { refuseToolFlagsOnTable, toolReadOptions } from "./toolReadOptions.js";

/** The systems' tables paired on the query, and how a report describes the inputs. */
export interface PairsRead {
  readonly table: PairedTable;
  readonly inputs: readonly InputDescription[];
  /** How an evaluation tool's output was read (each true of these files). */
  readonly notices: readonly string[];
  /** How the pairs were chosen (core's pair policy, applied to the systems found). */
  readonly mode: ComparisonMode;
  readonly pairs: (systems: readonly string[]) => (readonly [string, string])[];
  /** With facets (trial, judge, variant): each compared system × metric's per-cell sums. */
  readonly cells?: readonly SystemFacetCells[];
}

/**
 * Reads the systems' per-query results (or compare's per-document table) and pairs them on the
 * query, the pairs chosen by core's policy once the systems are known; stdin is spooled first.
 */
export async function readFilePairs(
  source: FilesSource,
  selection: Selection,
  options: ReadOptions,
): Promise<PairsRead> {
  const { files } = source;
  const metrics = selection.metrics ?? [];
  // stdin and pipes are copied to temporary files first (they can be read only once).
  const spooled = await spoolSources(files, {
    ...(source.stdin ? { stdin: source.stdin } : {}),
    format: source.format ?? null,
  });
  let converted: EvalResultsFile | null = null;
  const faceted: FacetRead[] = [];
  try {
    const inputs = spooled.sources.map((s) => ({ path: s.path, displayName: s.displayName }));
    // compare's per-document table (--aggregated): a tool's output is refused with what to run.
    if (source.aggregated)
      for (const input of inputs)
        await refuseToolOutput(input.path, input.displayName, source, options.usedBy ?? null);
    converted = source.aggregated
      ? null
      : await evalOutputs(inputs, source, metrics, options.progress?.scan);
    // With facets, each input's cells, and the input averaged per query for the pairing.
    const joined = { path: converted?.path ?? "", displayName: files.join(" + ") };
    for (const input of converted ? [joined] : inputs) {
      const systemName =
        converted || inputs.length === 1 ? null : fileSystemName(input.displayName);
      const read = await facetCellsOf(
        input.path,
        input.displayName,
        converted,
        source,
        selection,
        systemName,
      );
      if (read) faceted.push(read);
    }
    const averaged = faceted.length
      ? (converted ? [joined] : inputs).map((input, i) => ({
          path: (faceted[i] as FacetRead).averagedPath,
          displayName: input.displayName,
        }))
      : null;
    const policy = pairChoice(selection);
    const pairs = policy.pairs;
    // Tools' outputs (one file or one per system) become one table with a system column.
    const common = {
      format: averaged ? "parquet" : converted ? "jsonl" : (source.format ?? null),
      doc: converted ? "doc" : (source.doc ?? null),
      system: selection.systemColumn ?? (converted ? "system" : null),
      onlySystems: selection.systems ?? null,
      metrics,
      documentLabel: options.documentLabel ?? null,
      pairs,
      ...(source.threads ? { threads: source.threads } : {}),
    };
    options.progress?.status("reading and pairing…");
    const first = inputs[0] as { path: string; displayName: string };
    const [table, hashes] = await Promise.all([
      source.aggregated
        ? readPairedAggregates({ file: first.path, displayName: first.displayName, ...common })
        : readPairedResults({
            inputs: averaged ?? (converted ? [joined] : inputs),
            ...common,
            query: faceted[0]?.queryColumn ?? (converted ? "query_id" : (source.query ?? null)),
            intersect: selection.intersect ?? null,
            valuesUpTo: options.valuesUpTo ?? 0,
            aggregatedOption: options.aggregatedOption,
          }),
      Promise.all(inputs.map((i) => sha256File(i.path, i.displayName))),
    ]);
    return {
      table,
      inputs: inputs.map((input, i) => ({
        file: input.displayName,
        sha256: hashes[i] as string,
        format: converted?.tools[i] ?? inputFormat(input.path, source.format),
        rows: (converted?.rowsPerInput ??
          (averaged ? faceted.map((f) => f.rows) : table.rowsPerInput))[i] as number,
        kind: source.aggregated ? "per-document" : "per-query",
      })),
      notices: [
        ...spooled.sources.flatMap((s) => s.notes),
        ...(converted?.notes ?? []),
        ...faceted.flatMap((f) => f.notices),
      ],
      mode: policy.mode,
      pairs,
      ...(averaged
        ? {
            cells: faceted
              .flatMap((f) => f.cells)
              .filter((c) => c.system !== null && table.systems.includes(c.system)),
          }
        : {}),
    };
  } finally {
    for (const f of faceted) await f.cleanup();
    await converted?.cleanup();
    await spooled.cleanup();
  }
}

/**
 * The inputs as one per-query table when they are evaluation tools' outputs; null when they
 * are results tables.
 *
 * @throws RagciError when tools' outputs and tables are mixed
 */
async function evalOutputs(
  inputs: readonly { readonly path: string; readonly displayName: string }[],
  source: FilesSource,
  metrics: readonly string[],
  scan?: ReadProgress["scan"],
): Promise<EvalResultsFile | null> {
  const tools = await Promise.all(inputs.map((i) => evalFormatOf(i.path, source.format ?? null)));
  if (tools.every((t) => t === null)) {
    refuseToolFlagsOnTable(source, inputs[0]?.displayName ?? "");
    return null;
  }
  const table = inputs.find((_, i) => tools[i] === null);
  if (table)
    throw new RagciError(
      "invalid-option",
      `${table.displayName}: is a results table while the other inputs are evaluation tools' outputs; compare one kind at a time`,
      { file: table.displayName },
    );
  return evalResultsFile(
    inputs.map((i) => ({ path: i.path, file: i.displayName })),
    {
      ...(await toolReadOptions(source, source.format ? (tools[0] ?? null) : null, metrics)),
      ...(scan ? { progress: scan } : {}),
    },
  );
}
