import { DOCUMENT_BOOTSTRAP_MODULE } from "../kernels/kernelModules.js";
import type { Pcg64State } from "../numeric/pcg64.js";
import { BOUNDED_BLOCK, DATA_AT, putGenerator, takeGenerator } from "../numeric/pcg64Kernel.js";
import { instantiateKernel, type KernelMemory, reserve } from "../numeric/wasmInstance.js";

/**
 * The document bootstrap's WebAssembly kernel: the PCG64 draws ($bounded, bounded.wat), the
 * replicate scoring ($score, score.wat) and the tails ($tails, tails.wat) in one module of
 * src/core/kernels, so the drawn indices and the scored replicates never leave its memory.
 */

/** The replicate columns in the kernel's memory, in this order, each B doubles. */
export const REPLICATE_COLUMNS = ["macro", "micro", "macroT", "microT"] as const;

/** Byte offset of column c (an index into REPLICATE_COLUMNS) of B scored replicates. */
export function replicateColumnAt(scored: ScoredReplicates, replicates: number, c: number): number {
  return scored.columnAt + 8 * replicates * c;
}

/** tails(values, n, low, high, out, flags) → 1 if a value is NaN (tails.wat). */
export type TailsCall = (
  values: number,
  n: number,
  low: number,
  high: number,
  out: number,
  flags: number,
) => number;

export interface BootstrapKernel {
  readonly memory: KernelMemory;
  readonly bounded: (K: number, threshold: number, count: number, scale: number) => void;
  readonly score: (
    K: number,
    rows: number,
    docs: number,
    out: number,
    total: number,
    first: number,
    fullMacro: number,
    fullMicro: number,
  ) => number;
  readonly tails: TailsCall;
}
let kernel: BootstrapKernel | null | undefined;

/** The module, instantiated once per thread; null where WebAssembly is unavailable. */
export function bootstrapKernel(): BootstrapKernel | null {
  if (kernel !== undefined) return kernel;
  const exports = instantiateKernel(DOCUMENT_BOOTSTRAP_MODULE);
  kernel = exports
    ? {
        memory: exports.memory as KernelMemory,
        bounded: exports.bounded as BootstrapKernel["bounded"],
        score: exports.score as BootstrapKernel["score"],
        tails: exports.tails as TailsCall,
      }
    : null;
  return kernel;
}

/** The replicate columns the kernel fills (as documentBootstrap returns them). */
export interface ReplicateColumns {
  readonly macro: Float64Array;
  readonly micro: Float64Array;
  readonly macroT: Float64Array;
  readonly microT: Float64Array;
  readonly degenerate: Uint8Array;
}

export interface KernelInput {
  readonly n: Float64Array;
  readonly s: Float64Array;
  readonly rate: Float64Array;
  readonly fullMacro: number;
  readonly fullMicro: number;
  /** B, the number of replicates. */
  readonly replicates: number;
  /** numpy's Lemire threshold 2^32 mod K. */
  readonly threshold: number;
  readonly onBlock?: (done: number) => void;
}

/** The B replicates drawn and scored, held in the kernel's memory until the next call. */
export interface ScoredReplicates {
  readonly buffer: ArrayBuffer;
  readonly degenerateCount: number;
  /** Byte offset of column c (0 macro, 1 micro, 2 macroT, 3 microT): columnAt + 8·B·c. */
  readonly columnAt: number;
  /** Byte offset of the B degenerate flags. */
  readonly flagsAt: number;
  /** Scratch for the tails after the columns. */
  readonly scratchAt: number;
  readonly tails: TailsCall;
}

/**
 * Draws and scores all B replicates in the kernel's memory (2 ≤ K); null, with nothing
 * consumed, where WebAssembly is unavailable. `scratch` reserves that many bytes after them.
 */
export function scoreReplicatesWasm(
  st: Pcg64State,
  input: KernelInput,
  scratch = 0,
): ScoredReplicates | null {
  const k = bootstrapKernel();
  if (!k) return null;
  const K = input.n.length;
  const { replicates } = input;
  const rowsPerBlock = Math.max(1, Math.min(replicates, Math.floor(BOUNDED_BLOCK / K)));
  // Float64Array views need 8-byte aligned offsets.
  const docsAt = 8 * Math.ceil((DATA_AT + 4 * rowsPerBlock * K) / 8);
  const columnAt = docsAt + 24 * K;
  const flagsAt = columnAt + 32 * replicates;
  const scratchAt = 8 * Math.ceil((flagsAt + replicates) / 8);
  const buffer = reserve(k.memory, scratchAt + scratch);
  const docs = new Float64Array(buffer, docsAt, 3 * K);
  for (let d = 0; d < K; d++) {
    docs[3 * d] = input.n[d] as number;
    docs[3 * d + 1] = input.s[d] as number;
    docs[3 * d + 2] = input.rate[d] as number;
  }
  putGenerator(buffer, st);
  let degenerateCount = 0;
  for (let first = 0; first < replicates; first += rowsPerBlock) {
    const rows = Math.min(rowsPerBlock, replicates - first);
    k.bounded(K, input.threshold, rows * K, 24);
    degenerateCount += k.score(
      K,
      rows,
      docsAt,
      columnAt,
      replicates,
      first,
      input.fullMacro,
      input.fullMicro,
    );
    input.onBlock?.(first + rows);
  }
  takeGenerator(buffer, st);
  return { buffer, degenerateCount, columnAt, flagsAt, scratchAt, tails: k.tails };
}

/** Copies the scored replicates out into the columns documentBootstrap returns. */
export function copyReplicates(scored: ScoredReplicates, out: ReplicateColumns): void {
  const B = out.macro.length;
  REPLICATE_COLUMNS.forEach((field, c) => {
    out[field].set(new Float64Array(scored.buffer, replicateColumnAt(scored, B, c), B));
  });
  out.degenerate.set(new Uint8Array(scored.buffer, scored.flagsAt, B));
}
