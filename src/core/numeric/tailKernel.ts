import { TAILS_MODULE } from "../kernels/kernelModules.js";
import { instantiateKernel, type KernelMemory, reserve } from "./wasmInstance.js";

/**
 * The kept tails of tailOrderStatistics through the WebAssembly function $tails
 * (src/core/kernels/tails.wat): one pass keeps the `low` smallest values ascending and the
 * `high` largest descending, inserting a value only when it is beyond a tail's inner end.
 */

/** Where this file's own instance keeps the values; its tails follow them. */
const VALUES_AT = 16;

/** Reads back what `tails` wrote at `out` into `smallest` and `largest`. */
export function readTails(
  buffer: ArrayBuffer,
  out: number,
  smallest: Float64Array,
  largest: Float64Array,
): void {
  smallest.set(new Float64Array(buffer, out + 8, smallest.length));
  largest.set(new Float64Array(buffer, out + 8 * (smallest.length + 2), largest.length));
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

interface TailKernel {
  readonly memory: KernelMemory;
  readonly tails: TailsCall;
}
let kernel: TailKernel | null | undefined;

function tailKernel(): TailKernel | null {
  if (kernel !== undefined) return kernel;
  const exports = instantiateKernel(TAILS_MODULE);
  kernel = exports
    ? { memory: exports.memory as KernelMemory, tails: exports.tails as TailKernel["tails"] }
    : null;
  return kernel;
}

/**
 * The `low` smallest values ascending into `smallest` and the `high` largest descending into
 * `largest` (lengths low and high, both ≤ values.length); false if a value is NaN, null where
 * WebAssembly is unavailable.
 */
export function keepTailsWasm(
  values: Float64Array,
  smallest: Float64Array,
  largest: Float64Array,
): boolean | null {
  const k = tailKernel();
  if (!k) return null;
  const n = values.length;
  const low = smallest.length;
  const high = largest.length;
  const out = VALUES_AT + 8 * n;
  const buffer = reserve(k.memory, out + 8 * (low + high + 2));
  new Float64Array(buffer, VALUES_AT, n).set(values);
  if (k.tails(VALUES_AT, n, low, high, out, 0) !== 0) return false;
  readTails(buffer, out, smallest, largest);
  return true;
}
