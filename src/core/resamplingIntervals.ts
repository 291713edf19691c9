import {
  bootstrapPercentile,
  bootstrapPercentileFromQuantiles,
} from "./bootstrap/bootstrapPercentile.js";
import { bootstrapTFromQuantiles } from "./bootstrap/bootstrapT.js";
import {
  CHUNK_BOOTSTRAP_ROW_LIMIT,
  type ChunkBootstrapReplicates,
  chunkBootstrapBinary,
  chunkBootstrapRows,
} from "./bootstrap/chunkBootstrap.js";
import {
  documentBootstrapQuantiles,
  type QuantilePair,
} from "./bootstrap/documentBootstrapQuantiles.js";
import { bootstrapRescaling, rescaledBound } from "./bootstrap/fpcRescaledBootstrap.js";
import { replicatesShortOfLevel } from "./bootstrap/replicateLimit.js";
import { optionRef } from "./errors.js";
import type { DocumentStats, Estimand, Interval, ResultValues } from "./types.js";

export type ResamplingPhase = "document bootstrap" | "chunk bootstrap";

/**
 * The default chunkBootstrapMaxDraws: above B·K = 2·10⁶ the chunk bootstrap (a contrast) costs
 * more than every interval that is used, so it is skipped unless asked for.
 */
export const CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS = 2e6;

export interface ResamplingInput {
  readonly micro: number;
  readonly macro: number;
  /** Original (no fpc) standard errors that studentise the bootstrap-t: CR1 and sd/√K. */
  readonly microSe: number;
  readonly macroSe: number;
  readonly level: number;
  readonly replicates: number;
  readonly seed: number;
  readonly values: ResultValues | null;
  readonly onProgress: ((phase: ResamplingPhase, fraction: number) => void) | undefined;
  readonly maxDraws: number | null;
  readonly skippedReason: string | null;
  readonly spawnKeys: { readonly documents: readonly number[]; readonly chunks: readonly number[] };
  readonly chunkSkipped: string | null;
  /**
   * 1 − K/M when the population is known (SRS without replacement), else 1: the document
   * bootstrap's intervals are rescaled by its square root (fpcRescaledBootstrap.ts).
   */
  readonly fpc?: number;
}

export type ResamplingMethod = "bootstrap-t" | "bootstrap-percentile" | "chunk-bootstrap";

function unavailableResampling(
  reason: string,
): Record<Estimand, Record<ResamplingMethod, Interval>> {
  const off: Interval = { available: false, reason };
  const all = { "bootstrap-t": off, "bootstrap-percentile": off, "chunk-bootstrap": off };
  return { micro: all, macro: all };
}

/**
 * The three resampling intervals for micro and macro (SPEC §3). The document bootstrap draws
 * with replacement; with a population it is rescaled by √(1 − K/M) (Rao & Wu 1988). The chunk
 * bootstrap, a contrast that ignores the documents, is never corrected.
 */
export function resamplingIntervals(
  stats: DocumentStats,
  input: ResamplingInput,
): Record<Estimand, Partial<Record<ResamplingMethod, Interval>>> {
  const { level, replicates, seed, onProgress } = input;
  const chunkProgress = onProgress ? (f: number) => onProgress("chunk bootstrap", f) : undefined;
  const draws = replicates * stats.n.length;
  if (replicates === 0 || (input.maxDraws !== null && draws > input.maxDraws)) {
    const reason =
      replicates === 0
        ? (input.skippedReason ?? "resampling turned off (B = 0)")
        : `skipped by default: B·K = ${draws.toExponential(1)} document draws would take minutes; with K = ${stats.n.length} the t and cr2 intervals are the ones to use — pass ${optionRef("replicates")} B to run it anyway`;
    return unavailableResampling(reason);
  }
  const short = replicatesShortOfLevel(replicates, level);
  if (short !== null) return unavailableResampling(short);
  const documents = documentBootstrapQuantiles(stats, input, {
    replicates,
    seed,
    level,
    spawnKey: input.spawnKeys.documents,
    ...(onProgress ? { onProgress: (f: number) => onProgress("document bootstrap", f) } : {}),
  });
  const c = bootstrapRescaling(input.fpc ?? 1);
  const percentile = (estimate: number, [lower, upper]: QuantilePair): QuantilePair => [
    rescaledBound(estimate, lower, c),
    rescaledBound(estimate, upper, c),
  ];
  const degenerate = documents.degenerateCount / replicates;
  const used = replicates - documents.degenerateCount;
  const total = stats.n.reduce((a, b) => a + b, 0);
  let chunks: ChunkBootstrapReplicates | string;
  const chunkKey = input.spawnKeys.chunks;
  if (input.chunkSkipped !== null) chunks = input.chunkSkipped;
  else if (stats.binary)
    chunks = chunkBootstrapBinary(stats, {
      replicates,
      seed,
      onProgress: chunkProgress,
      spawnKey: chunkKey,
    });
  else if (input.values === null) {
    chunks =
      "non-binary metric from per-document input: resampling results needs the per-query values";
  } else if (total * replicates > CHUNK_BOOTSTRAP_ROW_LIMIT) {
    chunks = `N × B = ${total * replicates} is too many draws for the row-level chunk bootstrap of a non-binary metric (a contrast); lower ${optionRef("replicates")}`;
  } else
    chunks = chunkBootstrapRows(input.values, {
      replicates,
      seed,
      onProgress: chunkProgress,
      spawnKey: chunkKey,
    });
  const chunkInterval = (estimates: "micro" | "macro"): Interval =>
    typeof chunks === "string"
      ? { available: false, reason: chunks }
      : bootstrapPercentile(chunks[estimates], level, { seed, degenerate: 0 });
  return {
    micro: {
      "bootstrap-t": bootstrapTFromQuantiles({
        estimate: input.micro,
        se: input.microSe * c,
        replicates,
        used,
        quantiles: documents.microT,
        seed,
      }),
      "bootstrap-percentile": bootstrapPercentileFromQuantiles(
        percentile(input.micro, documents.micro),
        {
          replicates,
          seed,
          degenerate,
        },
      ),
      "chunk-bootstrap": chunkInterval("micro"),
    },
    macro: {
      "bootstrap-t": bootstrapTFromQuantiles({
        estimate: input.macro,
        se: input.macroSe * c,
        replicates,
        used,
        quantiles: documents.macroT,
        seed,
      }),
      "bootstrap-percentile": bootstrapPercentileFromQuantiles(
        percentile(input.macro, documents.macro),
        {
          replicates,
          seed,
          degenerate,
        },
      ),
      "chunk-bootstrap": chunkInterval("macro"),
    },
  };
}

/** Why the chunk bootstrap is skipped when B·K exceeds maxDraws; null when it runs. */
export function chunkBootstrapOverBudget(draws: number, maxDraws: number | null): string | null {
  return maxDraws !== null && draws > maxDraws
    ? `skipped by default: B·K = ${draws.toExponential(1)} draws of a contrast (it ignores the documents) would cost more than every other interval; pass ${optionRef("chunkBootstrap")} to run it`
    : null;
}
