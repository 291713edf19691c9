import { binomialsAtFixedProbabilities } from "../numeric/binomialsAtFixedProbabilities.js";
import { fillBoundedIntegers } from "../numeric/boundedIntegers.js";
import { createPcg64 } from "../numeric/pcg64.js";
import { uniformSource } from "../numeric/uniform.js";
import type { DocumentStats, ResultValues } from "../types.js";
import { chunkBootstrapBinaryWasm, chunkBootstrapRowsWasm } from "./chunkBootstrapKernel.js";
import type { ChunkBootstrapOptions, ChunkBootstrapReplicates } from "./chunkBootstrapOptions.js";

// ResultValues lives in core/types.ts; re-exported here for the readers in src/ingest that still
// import it from this file.
export type { ResultValues } from "../types.js";
export type { ChunkBootstrapOptions, ChunkBootstrapReplicates } from "./chunkBootstrapOptions.js";

/** Largest N·B the row-level chunk bootstrap (non-binary metrics) will attempt. */
export const CHUNK_BOOTSTRAP_ROW_LIMIT = 2e9;

/**
 * Contrast: resample the N results with replacement, ignoring documents (what a per-query
 * bootstrap does). For 0/1 results this needs no per-query data and costs O(B·K): the counts
 * drawn from each document are multinomial(N; n_d/N), taken as successive binomials
 * c_d ~ Bin(N − Σ_{j<d} c_j, n_d / (N − Σ_{j<d} n_j)), and the hits among them
 * Bin(c_d, r_d) — the same distribution as drawing N rows. Binomials by `binomialSampler` (inversion or
 * BTRD) on uniforms of `default_rng(seed)`; the stream is not numpy's own binomial. The 2K
 * probabilities are fixed, so their setups are computed once (`binomialsAtFixedProbabilities`,
 * draw for draw the same numbers as `binomialSampler`).
 * Macro: mean over the documents drawn at least once of hits_d / c_d.
 *
 * Run by a WebAssembly kernel (chunkBootstrapKernel.ts: the same uniforms, branches and
 * floating-point operations, so the same replicates) where WebAssembly is available, else by
 * chunkBootstrapBinaryJs, its oracle in the tests.
 */
export function chunkBootstrapBinary(
  stats: DocumentStats,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates {
  const { probabilities, total } = chunkDrawProbabilities(stats);
  const replicates = chunkBootstrapBinaryWasm(probabilities, total, options);
  return replicates ?? chunkBootstrapBinaryJs(stats, options);
}

/**
 * The 2K probabilities of chunkBootstrapBinary's draws: slot 2d, document d's share of the
 * results still to draw, n_d / (N − Σ_{j<d} n_j); slot 2d + 1, its rate s_d / n_d. N is `total`.
 */
export function chunkDrawProbabilities(stats: DocumentStats): {
  readonly probabilities: Float64Array;
  readonly total: number;
} {
  const k = stats.n.length;
  const total = stats.n.reduce((a, b) => a + b, 0);
  const remainingAfter = new Float64Array(k);
  for (let d = k - 1, rest = 0; d >= 0; d--) {
    remainingAfter[d] = rest;
    rest += stats.n[d] as number;
  }
  const probabilities = new Float64Array(2 * k);
  for (let d = 0; d < k; d++) {
    const n = stats.n[d] as number;
    probabilities[2 * d] = n / (n + (remainingAfter[d] as number));
    probabilities[2 * d + 1] = (stats.s[d] as number) / n;
  }
  return { probabilities, total };
}

/** chunkBootstrapBinary in JS: where WebAssembly is unavailable, and the kernel's oracle. */
export function chunkBootstrapBinaryJs(
  stats: DocumentStats,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates {
  const { replicates, seed, onProgress, spawnKey = [] } = options;
  const progressEvery = Math.max(1, Math.floor(replicates / 100));
  const k = stats.n.length;
  const uniform = uniformSource(seed, spawnKey);
  const { probabilities, total } = chunkDrawProbabilities(stats);
  const draw = binomialsAtFixedProbabilities(probabilities, total, uniform);
  const micro = new Float64Array(replicates);
  const macro = new Float64Array(replicates);
  for (let b = 0; b < replicates; b++) {
    if (onProgress && b % progressEvery === 0) onProgress(b / replicates);
    let left = total;
    let hits = 0;
    let rateSum = 0;
    let present = 0;
    for (let d = 0; d < k && left > 0; d++) {
      const count = d === k - 1 ? left : draw(2 * d, left);
      left -= count;
      if (count === 0) continue;
      const h = draw(2 * d + 1, count);
      hits += h;
      rateSum += h / count;
      present++;
    }
    micro[b] = hits / total;
    macro[b] = rateSum / present;
  }
  return { replicates, seed, micro, macro };
}

/**
 * Contrast for real-valued metrics: N row indices per replicate from
 * `default_rng(seed).integers(0, N, (B, N))`, rows ordered by document. O(B·N). Run by a
 * WebAssembly kernel (chunkBootstrapKernel.ts: the same indices and sums) where WebAssembly is
 * available and N is at most a few million, else by chunkBootstrapRowsJs, its oracle.
 */
export function chunkBootstrapRows(
  values: ResultValues,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates {
  return chunkBootstrapRowsWasm(values, options) ?? chunkBootstrapRowsJs(values, options);
}

/** chunkBootstrapRows in JS: where the kernel does not run, and the kernel's oracle. */
export function chunkBootstrapRowsJs(
  values: ResultValues,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates {
  const { replicates, seed, onProgress, spawnKey = [] } = options;
  const progressEvery = Math.max(1, Math.floor(replicates / 100));
  const total = values.values.length;
  const k = values.offsets.length - 1;
  const documentOf = new Uint32Array(total);
  for (let d = 0; d < k; d++)
    documentOf.fill(d, values.offsets[d] as number, values.offsets[d + 1] as number);
  const state = createPcg64(seed, spawnKey);
  const row = new Uint32Array(total);
  const sums = new Float64Array(k);
  const counts = new Uint32Array(k);
  const micro = new Float64Array(replicates);
  const macro = new Float64Array(replicates);
  for (let b = 0; b < replicates; b++) {
    if (onProgress && b % progressEvery === 0) onProgress(b / replicates);
    fillBoundedIntegers(state, total, row);
    sums.fill(0);
    counts.fill(0);
    let sum = 0;
    for (let i = 0; i < total; i++) {
      const r = row[i] as number;
      const x = values.values[r] as number;
      const d = documentOf[r] as number;
      sum += x;
      sums[d] = (sums[d] as number) + x;
      counts[d] = (counts[d] as number) + 1;
    }
    let rateSum = 0;
    let present = 0;
    for (let d = 0; d < k; d++) {
      if (counts[d] === 0) continue;
      rateSum += (sums[d] as number) / (counts[d] as number);
      present++;
    }
    micro[b] = sum / total;
    macro[b] = rateSum / present;
  }
  return { replicates, seed, micro, macro };
}
