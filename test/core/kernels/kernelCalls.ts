import { bootstrapKernel } from "../../../src/core/bootstrap/documentBootstrapKernel.js";
import type { Pcg64State } from "../../../src/core/numeric/pcg64.js";
import {
  BOUNDED_BLOCK,
  DATA_AT,
  putGenerator,
  takeGenerator,
} from "../../../src/core/numeric/pcg64Kernel.js";
import { reserve } from "../../../src/core/numeric/wasmInstance.js";

// The kernels' functions called one at a time, as the document bootstrap calls them inside its
// module, so that the tests can hold each to its JS form on cases the bootstrap rarely reaches.

function kernel() {
  const k = bootstrapKernel();
  if (!k) throw new Error("WebAssembly is unavailable here");
  return k;
}

/** fillBoundedIntegers for 2 ≤ K < 2^32 through $bounded (threshold = 2^32 mod K). */
export function boundedThroughKernel(
  st: Pcg64State,
  K: number,
  threshold: number,
  out: Uint32Array,
): void {
  const k = kernel();
  const block = Math.min(out.length, BOUNDED_BLOCK);
  const buffer = reserve(k.memory, DATA_AT + 4 * block);
  putGenerator(buffer, st);
  const results = new Uint32Array(buffer, DATA_AT, block);
  for (let at = 0; at < out.length; at += BOUNDED_BLOCK) {
    const count = Math.min(BOUNDED_BLOCK, out.length - at);
    k.bounded(K | 0, threshold | 0, count, 1);
    out.set(results.subarray(0, count), at);
  }
  takeGenerator(buffer, st);
}

/**
 * The `low` smallest values ascending into `smallest` and the `high` largest descending into
 * `largest`, through $tails; false if a value is NaN.
 */
export function tailsThroughKernel(
  values: Float64Array,
  smallest: Float64Array,
  largest: Float64Array,
): boolean {
  const k = kernel();
  const n = values.length;
  const out = 8 * n;
  const buffer = reserve(k.memory, out + 8 * (smallest.length + largest.length + 2));
  new Float64Array(buffer, 0, n).set(values);
  if (k.tails(0, n, smallest.length, largest.length, out, 0) !== 0) return false;
  // $tails writes [−∞, smallest × low, +∞, largest × high] at out
  smallest.set(new Float64Array(buffer, out + 8, smallest.length));
  largest.set(new Float64Array(buffer, out + 8 * (smallest.length + 2), largest.length));
  return true;
}
