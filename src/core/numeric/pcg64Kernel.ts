import type { Pcg64State } from "./pcg64.js";

/**
 * Where the WebAssembly function $bounded (src/core/kernels/bounded.wat: numpy's PCG64 stream
 * and its Lemire bounded integers, the same integers as fillBoundedIntegersJs) keeps the
 * generator in its module's memory, and how it is moved there and back.
 */

/** Where the kernel's data starts: the generator occupies the first 64 bytes. */
export const DATA_AT = 64;

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
