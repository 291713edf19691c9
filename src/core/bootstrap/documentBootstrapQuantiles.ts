import { documentRates } from "../estimands/macroEstimate.js";
import { createPcg64 } from "../numeric/pcg64.js";
import { quantilesAtRanks, quantilesType7, type7Ranks } from "../numeric/quantileType7.js";
import { MAX_TAIL_SLOTS, tailSizes } from "../numeric/tailOrderStatistics.js";
import type { DocumentStats } from "../types.js";
import {
  type BootstrapOptions,
  type DocumentBootstrapReplicates,
  documentBootstrapInJs,
  kernelInput,
  replicatesAndSeed,
} from "./documentBootstrap.js";
import {
  REPLICATE_COLUMNS,
  replicateColumnAt,
  type ScoredReplicates,
  scoreReplicatesWasm,
} from "./documentBootstrapKernel.js";

/** A pair of type-7 quantiles: at α/2 and at 1 − α/2. */
export type QuantilePair = readonly [number, number];

/** What the bootstrap intervals read of the document bootstrap (SPEC §3). */
export interface DocumentBootstrapQuantiles {
  readonly replicates: number;
  readonly seed: number;
  readonly degenerateCount: number;
  /** Of the replicate estimates (all B). */
  readonly macro: QuantilePair;
  readonly micro: QuantilePair;
  /** Of the studentised replicates, degenerate ones dropped; null when every one is. */
  readonly macroT: QuantilePair | null;
  readonly microT: QuantilePair | null;
}

/**
 * The quantiles of documentBootstrap's replicates at α/2 and 1 − α/2 (α = 1 − level), the
 * same numbers as quantilesType7 on its columns (the studentised ones without the degenerate
 * replicates). Where WebAssembly runs, the replicates never leave the kernel's memory: their
 * tails are kept there, in place, passing over the degenerate flags (no copies, no arrays).
 */
export function documentBootstrapQuantiles(
  stats: DocumentStats,
  full: { readonly micro: number; readonly macro: number },
  options: BootstrapOptions & { readonly level: number },
): DocumentBootstrapQuantiles {
  const { replicates, seed } = replicatesAndSeed(options);
  const alpha = 1 - options.level;
  const ps = [alpha / 2, 1 - alpha / 2];
  const scored = scoreReplicatesWasm(
    createPcg64(seed, options.spawnKey ?? []),
    kernelInput(stats, full, documentRates(stats), replicates, options),
    8 * MAX_TAIL_SLOTS,
  );
  const inJs = scored === null ? documentBootstrapInJs(stats, full, options) : null;
  const degenerateCount = scored?.degenerateCount ?? inJs?.degenerateCount ?? 0;
  const [macro, micro, macroT, microT] = REPLICATE_COLUMNS.map((_, c) =>
    scored !== null
      ? inKernel(scored, replicates, c, ps)
      : fromArrays(inJs as DocumentBootstrapReplicates, c, ps),
  );
  return {
    replicates,
    seed,
    degenerateCount,
    macro: macro as QuantilePair,
    micro: micro as QuantilePair,
    macroT: macroT ?? null,
    microT: microT ?? null,
  };
}

/** The JS path: quantilesType7 on the columns (studentised ones without the degenerate). */
function fromArrays(
  b: DocumentBootstrapReplicates,
  column: number,
  ps: readonly number[],
): QuantilePair | null {
  const values = b[REPLICATE_COLUMNS[column] as (typeof REPLICATE_COLUMNS)[number]];
  const kept = column < 2 ? values : values.filter((_, i) => b.degenerate[i] === 0);
  return kept.length === 0 ? null : (quantilesType7(kept, ps) as unknown as QuantilePair);
}

/** A view of the whole kernel memory, remade only when the memory has grown (a new buffer). */
let memoryView: Float64Array | null = null;
function wholeMemory(buffer: ArrayBuffer): Float64Array {
  if (memoryView?.buffer !== buffer) memoryView = new Float64Array(buffer);
  return memoryView;
}

/** Column c's quantiles from its tails kept in place (or a copy and selection, as quantilesType7). */
function inKernel(
  scored: ScoredReplicates,
  replicates: number,
  column: number,
  ps: readonly number[],
): QuantilePair | null {
  const studentised = column >= 2;
  const count = studentised ? replicates - scored.degenerateCount : replicates;
  if (count === 0) return null;
  const ranks = type7Ranks(count, ps);
  const sizes = tailSizes(count, ranks);
  const at = replicateColumnAt(scored, replicates, column);
  if (sizes !== null && sizes.low > 0 && sizes.high > 0) {
    const flags = studentised ? scored.flagsAt : 0;
    const { scratchAt } = scored;
    if (scored.tails(at, replicates, sizes.low, sizes.high, scratchAt, flags) === 0) {
      // the tails' slots: [−∞, smallest × low, +∞, largest × high] at scratchAt
      const memory = wholeMemory(scored.buffer);
      const smallest = scratchAt / 8 + 1;
      const largest = smallest + sizes.low + 1;
      const orderStatistics = ranks.map(
        (r) => memory[r < sizes.low ? smallest + r : largest + (count - 1 - r)] as number,
      );
      return quantilesAtRanks(count, ps, orderStatistics) as unknown as QuantilePair;
    }
  }
  const values = new Float64Array(scored.buffer, at, replicates);
  const flags = new Uint8Array(scored.buffer, scored.flagsAt, replicates);
  const kept = studentised ? values.filter((_, i) => flags[i] === 0) : Float64Array.from(values);
  return quantilesType7(kept, ps) as unknown as QuantilePair;
}
