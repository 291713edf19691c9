import type { ComparisonMode } from "../core/comparisonPairs.js";
import { RagciError } from "../core/errors.js";
import { chunkBootstrapValuesToKeep } from "../core/resamplingBudget.js";
import { type EvalResultsFile, evalResultsFile } from "../ingest/evalFormats/evalResultsFile.js";
import { readDocMap } from "../ingest/evalFormats/readDocMap.js";
import { evalFormatOf } from "../ingest/evalFormats/readEvalContent.js";
import { inputFormat } from "../ingest/inputFormat.js";
import { readPairedAggregates } from "../ingest/readPairedAggregates.js";
import { type PairedTable, readPairedResults } from "../ingest/readPairedResults.js";
import { sha256File } from "../ingest/sha256File.js";
import { spoolSources } from "../ingest/spoolSource.js";
import type { InputDescription } from "../report/analysisReport.js";
import type { DatabaseOptions } from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import { pairPolicy } from "./pairPolicy.js";
import type { SystemOption } from "./systemFilter.js";

/** The flags that say how to read and pair the systems' results. */
export interface PairedInputOptions extends DatabaseOptions {
  readonly doc?: string;
  /** trec_eval: a table of query id → document. */
  readonly docMap?: string;
  /** TREC runs: the qrels file, and whether to score its queries a run lacks (trec_eval -c). */
  readonly qrels?: string;
  readonly completeQueries?: boolean;
  readonly errorsAsFailures?: boolean;
  readonly query?: string;
  readonly format?: string;
  readonly baseline?: string;
  readonly allPairs?: boolean;
  readonly intersect?: boolean;
  readonly aggregated?: boolean;
  readonly threads?: number;
  readonly replicates: number;
}

export interface LoadedPairs {
  readonly table: PairedTable;
  readonly inputs: readonly InputDescription[];
  /** How an evaluation tool's output was read (each true of these files). */
  readonly notices: readonly string[];
  /** How the pairs were chosen (core's pair policy, applied to the systems found). */
  readonly mode: ComparisonMode;
  readonly pairs: (systems: readonly string[]) => (readonly [string, string])[];
}

/**
 * Reads the systems' per-query results (or compare's per-document table) and pairs them on the
 * query, the pairs chosen by core's policy once the systems are known; stdin is spooled first.
 * With --from the pairing and the sums run in the database instead (loadPairedFromDatabase).
 */
export async function loadPairedInput(
  files: readonly string[],
  options: PairedInputOptions,
  metrics: readonly string[],
  systemOption: SystemOption | null,
  documentLabel: string | null,
  io: CommandIo,
): Promise<LoadedPairs> {
  if (options.from !== undefined) {
    const { loadPairedFromDatabase } = await import("./loadPairedFromDatabase.js");
    return loadPairedFromDatabase(options, metrics, systemOption, documentLabel, io);
  }
  // stdin and pipes are copied to temporary files first (they can be read only once).
  const spooled = await spoolSources(files, { stdin: io.stdin, format: options.format ?? null });
  let converted: EvalResultsFile | null = null;
  try {
    const inputs = spooled.sources.map((s) => ({ path: s.path, displayName: s.displayName }));
    converted = options.aggregated ? null : await evalOutputs(inputs, options, metrics);
    const policy = pairPolicy(options);
    const pairs = policy.pairs;
    // Tools' outputs (one file or one per system) become one table with a system column.
    const common = {
      format: converted ? "jsonl" : (options.format ?? null),
      doc: converted ? "doc" : (options.doc ?? null),
      system: systemOption?.column ?? (converted ? "system" : null),
      onlySystems: systemOption?.values ?? null,
      metrics,
      documentLabel,
      pairs,
      ...(options.threads ? { threads: options.threads } : {}),
    };
    io.progress.update("reading and pairing…");
    const first = inputs[0] as { path: string; displayName: string };
    const [table, hashes] = await Promise.all([
      options.aggregated
        ? readPairedAggregates({ file: first.path, displayName: first.displayName, ...common })
        : readPairedResults({
            inputs: converted ? [{ path: converted.path, displayName: files.join(" + ") }] : inputs,
            ...common,
            query: converted ? "query_id" : (options.query ?? null),
            intersect: options.intersect ?? false,
            valuesUpTo: chunkBootstrapValuesToKeep(options.replicates),
          }),
      Promise.all(inputs.map((i) => sha256File(i.path, i.displayName))),
    ]);
    return {
      table,
      inputs: inputs.map((input, i) => ({
        file: input.displayName,
        sha256: hashes[i] as string,
        format: converted?.tools[i] ?? inputFormat(input.path, options.format),
        rows: (converted?.rowsPerInput ?? table.rowsPerInput)[i] as number,
        kind: options.aggregated ? "per-document" : "per-query",
      })),
      notices: [...spooled.sources.flatMap((s) => s.notes), ...(converted?.notes ?? [])],
      mode: policy.mode,
      pairs,
    };
  } finally {
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
  options: PairedInputOptions,
  metrics: readonly string[],
): Promise<EvalResultsFile | null> {
  const tools = await Promise.all(inputs.map((i) => evalFormatOf(i.path, options.format ?? null)));
  if (tools.every((t) => t === null)) return null;
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
      format: options.format ? (tools[0] ?? null) : null,
      doc: options.doc ?? null,
      metrics,
      docMap: options.docMap ? await readDocMap(options.docMap) : null,
      qrels: options.qrels ?? null,
      completeQueries: options.completeQueries ?? false,
      errors: options.errorsAsFailures ? "failures" : "apart",
    },
  );
}
