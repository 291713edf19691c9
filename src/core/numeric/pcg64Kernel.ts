import { BOUNDED_MODULE } from "../kernels/kernelModules.js";
import type { Pcg64State } from "./pcg64.js";
import { instantiateKernel, type KernelMemory, reserve } from "./wasmInstance.js";

/**
 * numpy's PCG64 stream and its Lemire bounded integers through the WebAssembly function
 * $bounded (src/core/kernels/bounded.wat, where the step and the memory layout are written
 * out): the same integers as the JS loop of fillBoundedIntegers, about five times faster.
 */

/** Where the kernel's data starts: the generator occupies the first 64 bytes. */
export const DATA_AT = 64;

interface Kernel {
  readonly memory: KernelMemory;
  readonly bounded: (K: number, threshold: number, count: number, scale: number) => void;
}
let kernel: Kernel | null | undefined;

/** The kernel, instantiated once per thread; null where WebAssembly is unavailable. */
function pcg64Kernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  const exports = instantiateKernel(BOUNDED_MODULE);
  kernel = exports
    ? { memory: exports.memory as KernelMemory, bounded: exports.bounded as Kernel["bounded"] }
    : null;
  return kernel;
}

/** Writes the generator into a kernel's memory (at 0, where $bounded reads it). */
export function putGenerator(buffer: ArrayBuffer, st: Pcg64State): void {
  const words = new Uint32Array(buffer, 0, 10);
  words.set(st.state, 0);
  words.set(st.increment, 4);
  words[8] = st.hasUint32 ? 1 : 0;
  words[9] = st.uinteger;
}

/** Reads the generator back after a kernel call. */
export function takeGenerator(buffer: ArrayBuffer, st: Pcg64State): void {
  const words = new Uint32Array(buffer, 0, 10);
  st.state.set(words.subarray(0, 4));
  st.hasUint32 = words[8] === 1;
  st.uinteger = st.hasUint32 ? (words[9] as number) : 0;
}

/** Integers per `bounded` call (the kernel's memory stays small whatever the count). */
export const BOUNDED_BLOCK = 1 << 16;

/**
 * `fillBoundedIntegers` for 2 ≤ K < 2^32 through the kernel (threshold = 2^32 mod K); false,
 * with nothing consumed, where WebAssembly is unavailable, so the caller uses its JS loop.
 */
export function fillBoundedIntegersWasm(
  st: Pcg64State,
  K: number,
  threshold: number,
  out: Uint32Array,
): boolean {
  const k = pcg64Kernel();
  if (!k) return false;
  const buffer = reserve(k.memory, DATA_AT + 4 * Math.min(out.length, BOUNDED_BLOCK));
  putGenerator(buffer, st);
  const results = new Uint32Array(buffer, DATA_AT, Math.min(out.length, BOUNDED_BLOCK));
  for (let at = 0; at < out.length; at += BOUNDED_BLOCK) {
    const count = Math.min(BOUNDED_BLOCK, out.length - at);
    k.bounded(K | 0, threshold | 0, count, 1);
    out.set(count === results.length ? results : results.subarray(0, count), at);
  }
  takeGenerator(buffer, st);
  return true;
}
