import { CHUNK_BOOTSTRAP_MODULE } from "../kernels/kernelModules.js";
import { STIRLING_SMALL } from "../numeric/binomial.js";
import { fixedProbabilitySetup } from "../numeric/binomialsAtFixedProbabilities.js";
import { lemireThreshold } from "../numeric/boundedIntegers.js";
import { createPcg64 } from "../numeric/pcg64.js";
import { BOUNDED_BLOCK, DATA_AT, putGenerator } from "../numeric/pcg64Kernel.js";
import { instantiateKernel, type KernelMemory, reserve } from "../numeric/wasmInstance.js";
import type { ResultValues } from "../types.js";
import type { ChunkBootstrapOptions, ChunkBootstrapReplicates } from "./chunkBootstrapOptions.js";

/**
 * The chunk bootstrap's WebAssembly kernels (src/core/kernels/): $chunk (chunk.wat), the
 * replicates chunkBootstrapBinaryJs computes for a 0/1 metric, double for double, from the same
 * setups (fixedProbabilitySetup) and the same PCG64 uniforms; and $bounded + $rows (bounded.wat,
 * rows.wat), those of chunkBootstrapRowsJs for other metrics, from the same row indices.
 */

/** chunk(k, total, first, last, slots, powers, micro, macro): replicates first … last − 1. */
type ChunkCall = (
  k: number,
  total: number,
  first: number,
  last: number,
  slots: number,
  powers: number,
  micro: number,
  macro: number,
) => void;

/** rows(N, K, count, first, values, documents, sums, counts, micro, macro) (rows.wat). */
type RowsCall = (
  N: number,
  K: number,
  count: number,
  first: number,
  values: number,
  documents: number,
  sums: number,
  counts: number,
  micro: number,
  macro: number,
) => void;

export interface ChunkKernel {
  readonly memory: KernelMemory;
  readonly chunk: ChunkCall;
  /** bounded(K, threshold, count, scale) (bounded.wat): `count` integers in [0, K) from byte 64. */
  readonly bounded: (K: number, threshold: number, count: number, scale: number) => void;
  readonly rows: RowsCall;
}

/** The functions the module imports: JS's own Math.log and `**`, as its oracle calls them. */
export interface ChunkKernelMath {
  readonly log: (x: number) => number;
  readonly pow: (x: number, y: number) => number;
}

const JS_MATH: ChunkKernelMath = { log: Math.log, pow: (x, y) => x ** y };

/** A new instance of the module (the tests count its imported calls); null without WebAssembly. */
export function instantiateChunkKernel(math: ChunkKernelMath = JS_MATH): ChunkKernel | null {
  const exports = instantiateKernel(CHUNK_BOOTSTRAP_MODULE, { math: { ...math } });
  return exports
    ? {
        memory: exports.memory as KernelMemory,
        chunk: exports.chunk as ChunkCall,
        bounded: exports.bounded as ChunkKernel["bounded"],
        rows: exports.rows as RowsCall,
      }
    : null;
}

let kernel: ChunkKernel | null | undefined;

/** The module, instantiated once per thread on first use; null without WebAssembly. */
function sharedKernel(): ChunkKernel | null {
  if (kernel === undefined) kernel = instantiateChunkKernel();
  return kernel;
}

/** Where STIRLING_SMALL sits (chunk.wat reads fc(k) at 64 + 8k), and the slots after it. */
const STIRLING_AT = DATA_AT;
const SLOTS_AT = STIRLING_AT + 8 * 10;

/**
 * chunkBootstrapBinary through the kernel (instantiated once per thread), given its 2K draw
 * probabilities and N; null, with nothing drawn, where WebAssembly is unavailable or its memory
 * cannot grow to what B and K need.
 */
export function chunkBootstrapBinaryWasm(
  probabilities: Float64Array,
  total: number,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates | null {
  const k = sharedKernel();
  return k ? chunkReplicatesOnKernel(k, probabilities, total, options) : null;
}

/**
 * The replicates on a given instance of the kernel (null if its memory cannot grow enough).
 * onProgress is called at the same replicates as in chunkBootstrapBinaryJs.
 */
export function chunkReplicatesOnKernel(
  k: ChunkKernel,
  probabilities: Float64Array,
  total: number,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates | null {
  const { replicates, seed, onProgress, spawnKey = [] } = options;
  const slots = probabilities.length;
  const setup = fixedProbabilitySetup(probabilities, total);
  // Four f64 arrays and three i32 arrays of 2K slots; every offset stays a multiple of 8.
  const powersAt = SLOTS_AT + slots * (4 * 8 + 3 * 4);
  const microAt = powersAt + 8 * setup.entries;
  const macroAt = microAt + 8 * replicates;
  const buffer = grown(k, macroAt + 8 * replicates);
  if (buffer === null) return null;
  new Float64Array(buffer, STIRLING_AT, 10).set(STIRLING_SMALL);
  let at = SLOTS_AT;
  for (const column of [probabilities, setup.small, setup.q, setup.odds]) {
    new Float64Array(buffer, at, slots).set(column);
    at += 8 * slots;
  }
  for (const column of [setup.powerAt, setup.powerLength, setup.flipped]) {
    new Int32Array(buffer, at, slots).set(column);
    at += 4 * slots;
  }
  // −1: not computed yet (qⁿ is positive).
  new Float64Array(buffer, powersAt, setup.entries).fill(-1);
  putGenerator(buffer, createPcg64(seed, spawnKey));
  const half = slots / 2;
  if (onProgress) {
    const progressEvery = Math.max(1, Math.floor(replicates / 100));
    for (let b = 0; b < replicates; b += progressEvery) {
      onProgress(b / replicates);
      k.chunk(
        half,
        total,
        b,
        Math.min(b + progressEvery, replicates),
        SLOTS_AT,
        powersAt,
        microAt,
        macroAt,
      );
    }
  } else k.chunk(half, total, 0, replicates, SLOTS_AT, powersAt, microAt, macroAt);
  return copiedReplicates(buffer, microAt, macroAt, options);
}

/**
 * Most rows the row kernel takes (its memory holds 24 bytes a row: index, value, document); a
 * larger N runs in JS, so that no thread keeps hundreds of MB of WebAssembly memory.
 */
const ROW_KERNEL_MAX_ROWS = 2 ** 22;

/**
 * chunkBootstrapRows through the kernel (instantiated once per thread); null, with nothing
 * drawn, where WebAssembly is unavailable, N < 2 (numpy then draws nothing), N exceeds
 * ROW_KERNEL_MAX_ROWS or the memory cannot grow.
 */
export function chunkBootstrapRowsWasm(
  values: ResultValues,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates | null {
  const k = sharedKernel();
  return k ? chunkRowsOnKernel(k, values, options) : null;
}

/**
 * The row-level replicates on a given instance of the kernel: $bounded draws the row indices
 * of up to BOUNDED_BLOCK / N replicates at a time (numpy's integers(0, N, (B, N)), row after
 * row), $rows scores them. onProgress is called at the same replicates as in chunkBootstrapRowsJs.
 */
export function chunkRowsOnKernel(
  k: ChunkKernel,
  values: ResultValues,
  options: ChunkBootstrapOptions,
): ChunkBootstrapReplicates | null {
  const { replicates, seed, onProgress, spawnKey = [] } = options;
  const N = values.values.length;
  const K = values.offsets.length - 1;
  if (N < 2 || N > ROW_KERNEL_MAX_ROWS) return null;
  const perCall = Math.max(1, Math.floor(BOUNDED_BLOCK / N));
  // Float64Array views need 8-byte aligned offsets.
  const valuesAt = 8 * Math.ceil((DATA_AT + 4 * perCall * N) / 8);
  const documentsAt = valuesAt + 8 * N;
  const sumsAt = 8 * Math.ceil((documentsAt + 4 * N) / 8);
  const countsAt = sumsAt + 8 * K;
  const microAt = countsAt + 8 * K;
  const macroAt = microAt + 8 * replicates;
  const buffer = grown(k, macroAt + 8 * replicates);
  if (buffer === null) return null;
  new Float64Array(buffer, valuesAt, N).set(values.values);
  const documents = new Int32Array(buffer, documentsAt, N);
  for (let d = 0; d < K; d++)
    documents.fill(d, values.offsets[d] as number, values.offsets[d + 1] as number);
  putGenerator(buffer, createPcg64(seed, spawnKey));
  const threshold = lemireThreshold(N);
  const progressEvery = Math.max(1, Math.floor(replicates / 100));
  for (let b = 0; b < replicates; ) {
    if (onProgress && b % progressEvery === 0) onProgress(b / replicates);
    let next = Math.min(replicates, b + perCall);
    // Stop at the next replicate that reports progress.
    if (onProgress) next = Math.min(next, (Math.floor(b / progressEvery) + 1) * progressEvery);
    k.bounded(N, threshold, (next - b) * N, 1);
    k.rows(N, K, next - b, b, valuesAt, documentsAt, sumsAt, countsAt, microAt, macroAt);
    b = next;
  }
  return copiedReplicates(buffer, microAt, macroAt, options);
}

/** The kernel's memory grown to `bytes`; null beyond what the engine grants a WebAssembly memory. */
function grown(k: ChunkKernel, bytes: number): ArrayBuffer | null {
  try {
    return reserve(k.memory, bytes);
  } catch {
    return null;
  }
}

/** The B replicates the kernel wrote at microAt and macroAt, copied out of its memory. */
function copiedReplicates(
  buffer: ArrayBuffer,
  microAt: number,
  macroAt: number,
  { replicates, seed }: ChunkBootstrapOptions,
): ChunkBootstrapReplicates {
  return {
    replicates,
    seed,
    micro: new Float64Array(buffer, microAt, replicates).slice(),
    macro: new Float64Array(buffer, macroAt, replicates).slice(),
  };
}
