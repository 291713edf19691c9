import { CHUNK_BOOTSTRAP_ROW_LIMIT } from "../core/bootstrap/chunkBootstrap.js";
import { type ComparisonMode, comparisonPairs } from "../core/comparisonPairs.js";
import { sha256File } from "../ingest/hashInputs.js";
import { readPairedAggregates } from "../ingest/readPairedAggregates.js";
import { type PairedTable, readPairedResults } from "../ingest/readPairedResults.js";
import type { InputDescription } from "../report/analysisReport.js";
import type { CommandIo } from "./io.js";
import { requireStdinFormat } from "./loadInput.js";
import { spoolStdin } from "./spoolStdin.js";
import type { SystemOption } from "./systemFilter.js";

/** The flags that say how to read and pair the systems' results. */
export interface PairedInputOptions {
  readonly doc?: string;
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
  /** How the pairs were chosen (core's pair policy, applied to the systems found). */
  readonly mode: ComparisonMode;
  readonly pairs: (systems: readonly string[]) => (readonly [string, string])[];
}

/**
 * Reads the systems' per-query results (or compare's per-document table) and pairs them on the
 * query, the pairs chosen by core's policy once the systems are known; stdin is spooled first.
 */
export async function loadPairedInput(
  files: readonly string[],
  options: PairedInputOptions,
  metrics: readonly string[],
  systemOption: SystemOption | null,
  documentLabel: string | null,
  io: CommandIo,
): Promise<LoadedPairs> {
  requireStdinFormat(files, options.format);
  const spooled = files.includes("-") ? await spoolStdin(io.stdin, options.format ?? "csv") : null;
  try {
    const inputs = files.map((f) => ({
      path: f === "-" ? (spooled?.path as string) : f,
      displayName: f === "-" ? "stdin" : f,
    }));
    let mode: ComparisonMode = "two";
    const pairs = (systems: readonly string[]): (readonly [string, string])[] => {
      const chosen = comparisonPairs(systems, {
        baseline: options.baseline ?? null,
        allPairs: options.allPairs ?? false,
      });
      mode = chosen.mode;
      return chosen.pairs;
    };
    const common = {
      format: options.format ?? null,
      doc: options.doc ?? null,
      system: systemOption?.column ?? null,
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
            inputs,
            ...common,
            query: options.query ?? null,
            intersect: options.intersect ?? false,
            valuesUpTo:
              options.replicates > 0
                ? Math.floor(CHUNK_BOOTSTRAP_ROW_LIMIT / options.replicates)
                : 0,
          }),
      Promise.all(inputs.map((i) => sha256File(i.path, i.displayName))),
    ]);
    return {
      table,
      inputs: inputs.map((input, i) => ({
        file: input.displayName,
        sha256: hashes[i] as string,
        format: options.format ?? "auto",
        rows: table.rowsPerInput[i] as number,
        kind: options.aggregated ? "per-document" : "per-query",
      })),
      mode,
      pairs,
    };
  } finally {
    await spooled?.cleanup();
  }
}
