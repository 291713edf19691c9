import { documentRates } from "../estimands/macroEstimate.js";
import { lemireThreshold } from "../numeric/boundedIntegers.js";
import { createPcg64 } from "../numeric/pcg64.js";
import type { DocumentStats } from "../types.js";
import {
  copyReplicates,
  type KernelInput,
  type ReplicateColumns,
  scoreReplicatesWasm,
} from "./documentBootstrapKernel.js";
import { checkReplicates, checkSeed } from "./replicateLimit.js";
import { forEachResampleBlock } from "./resampleDocuments.js";

export interface BootstrapOptions {
  /** B, the number of replicates (default 9999). */
  readonly replicates?: number;
  /** Seed of the numpy-compatible stream (default 1). */
  readonly seed?: number;
  /** numpy SeedSequence spawn key of the stream (default none: default_rng(seed)). */
  readonly spawnKey?: readonly number[];
  /** Called now and then with the fraction done; for a progress bar. */
  readonly onProgress?: (fraction: number) => void;
}

export interface DocumentBootstrapReplicates {
  readonly replicates: number;
  readonly seed: number;
  /** Per replicate: the macro mean of the drawn rates and the micro ratio Σs/Σn. */
  readonly macro: Float64Array;
  readonly micro: Float64Array;
  /** Per replicate: (r̄_b − r̄)/(sd_b/√K) and (R_b − R)/CR1_b; 0 where degenerate. */
  readonly macroT: Float64Array;
  readonly microT: Float64Array;
  /** 1 where every drawn document has the same rate, so both replicate SEs are exactly 0. */
  readonly degenerate: Uint8Array;
  readonly degenerateCount: number;
}

/**
 * Resamples documents with replacement (one index matrix shared by macro and micro, as the
 * reference computation does) and keeps, per replicate, both estimates and both studentised
 * statistics. Cost O(B·K), memory O(B + K).
 *
 * Degeneracy is decided exactly: a replicate is degenerate when s_i·n_j = s_j·n_i for every
 * drawn pair (checked against the first drawn document), not when a floating-point sd equals
 * 0. numpy's `sd == 0` can miss such replicates (equal rates whose mean rounds, sd ≈ 1e-17)
 * and then produce |t*| ≥ 10¹⁴; here they are always dropped. Elsewhere the two rules agree.
 *
 * @example documentBootstrap(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { micro: 0.5, macro: 0.5375 }, { replicates: 3, seed: 1 }).micro // numpy default_rng(1)
 *   // => [0.4375, 0.33333, 0.66667]
 */
export function documentBootstrap(
  stats: DocumentStats,
  full: { readonly micro: number; readonly macro: number },
  options: BootstrapOptions = {},
): DocumentBootstrapReplicates {
  const { replicates, seed, rate, out } = replicateSetup(stats, options);
  const scored = scoreReplicatesWasm(
    createPcg64(seed, options.spawnKey ?? []),
    kernelInput(stats, full, rate, replicates, options),
  );
  if (scored === null) return documentBootstrapInJs(stats, full, options);
  copyReplicates(scored, out);
  return { replicates, seed, ...out, degenerateCount: scored.degenerateCount };
}

/** What the kernel needs of a bootstrap (threshold: numpy's Lemire 2^32 mod K). */
export function kernelInput(
  stats: DocumentStats,
  full: { readonly micro: number; readonly macro: number },
  rate: Float64Array,
  replicates: number,
  options: BootstrapOptions,
): KernelInput {
  return {
    n: stats.n,
    s: stats.s,
    rate,
    fullMacro: full.macro,
    fullMicro: full.micro,
    replicates,
    threshold: lemireThreshold(stats.n.length),
    ...(options.onProgress
      ? { onBlock: (done: number) => options.onProgress?.(done / replicates) }
      : {}),
  };
}

/** B and the seed of a bootstrap: 9999 and 1 unless given, checked (a library caller's). */
export function replicatesAndSeed(options: BootstrapOptions): {
  readonly replicates: number;
  readonly seed: number;
} {
  const replicates = options.replicates ?? 9999;
  const seed = options.seed ?? 1;
  checkReplicates(replicates);
  checkSeed(seed);
  return { replicates, seed };
}

function replicateSetup(stats: DocumentStats, options: BootstrapOptions) {
  const { replicates, seed } = replicatesAndSeed(options);
  return {
    replicates,
    seed,
    rate: documentRates(stats),
    out: {
      macro: new Float64Array(replicates),
      micro: new Float64Array(replicates),
      macroT: new Float64Array(replicates),
      microT: new Float64Array(replicates),
      degenerate: new Uint8Array(replicates),
    },
  };
}

/**
 * The same replicates from the JS loop below (where WebAssembly is unavailable, and as the
 * kernel's oracle in the tests: the two agree bit for bit).
 */
export function documentBootstrapInJs(
  stats: DocumentStats,
  full: { readonly micro: number; readonly macro: number },
  options: BootstrapOptions = {},
): DocumentBootstrapReplicates {
  const { replicates, seed, rate, out } = replicateSetup(stats, options);
  let degenerateCount = 0;
  forEachResampleBlock(
    seed,
    stats.n.length,
    replicates,
    (block, rows, first) => {
      degenerateCount += scoreReplicates(
        block,
        rows,
        first,
        stats,
        rate,
        full.macro,
        full.micro,
        out,
      );
      options.onProgress?.((first + rows) / replicates);
    },
    options.spawnKey ?? [],
  );
  return { replicates, seed, ...out, degenerateCount };
}

/**
 * Replicates first … first + rows − 1 from their rows of drawn indices (row r at block[r·K …]);
 * returns how many were degenerate. A plain function of its arguments, so V8 keeps every array
 * in a register instead of a closure's context (this loop is most of a study's time).
 */
function scoreReplicates(
  block: Uint32Array,
  rows: number,
  firstReplicate: number,
  stats: DocumentStats,
  rate: Float64Array,
  fullMacro: number,
  fullMicro: number,
  out: ReplicateColumns,
): number {
  const { n, s } = stats;
  const { macro, micro, macroT, microT, degenerate } = out;
  const k = n.length;
  const sqrtK = Math.sqrt(k);
  const cr1Factor = k / (k - 1);
  let degenerateCount = 0;
  for (let r = 0; r < rows; r++) {
    const b = firstReplicate + r;
    const at = r * k;
    const end = at + k;
    const first = block[at] as number;
    const n0 = n[first] as number;
    const s0 = s[first] as number;
    let sumRate = 0;
    let sumS = 0;
    let sumN = 0;
    let allEqual = true;
    for (let j = at; j < end; j++) {
      const d = block[j] as number;
      const nd = n[d] as number;
      const sd = s[d] as number;
      sumRate += rate[d] as number;
      sumS += sd;
      sumN += nd;
      if (allEqual && sd * n0 !== s0 * nd) allEqual = false;
    }
    const meanRate = sumRate / k;
    const ratio = sumS / sumN;
    macro[b] = meanRate;
    micro[b] = ratio;
    if (allEqual) {
      degenerate[b] = 1;
      degenerateCount++;
      continue;
    }
    let squares = 0;
    let residuals = 0;
    for (let j = at; j < end; j++) {
      const d = block[j] as number;
      const gap = (rate[d] as number) - meanRate;
      const u = (s[d] as number) - ratio * (n[d] as number);
      squares += gap * gap;
      residuals += u * u;
    }
    const seMacro = Math.sqrt(squares / (k - 1)) / sqrtK;
    const seMicro = Math.sqrt(cr1Factor * residuals) / sumN;
    macroT[b] = (meanRate - fullMacro) / seMacro;
    microT[b] = (ratio - fullMicro) / seMicro;
  }
  return degenerateCount;
}
