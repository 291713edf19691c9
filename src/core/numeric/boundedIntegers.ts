import { createPcg64, fillUint32, nextUint32, type Pcg64State } from "./pcg64.js";

const TWO_POW_32 = 4294967296;
const INV_2_16 = 1 / 65536;
const INV_2_32 = 1 / TWO_POW_32;
/** Largest K for which x·K (x < 2^32) stays below 2^53, i.e. is exact in a double. */
const SINGLE_PRODUCT_MAX_K = 2 ** 21;
/** 32-bit draws generated per block in the Lemire loop. */
const DRAW_BLOCK = 4096;

/** Throws unless 1 ≤ K ≤ 2^32 is an integer (the range this module reproduces exactly). */
function requireSupportedBound(K: number): void {
  if (!Number.isInteger(K) || K < 1 || K > TWO_POW_32) {
    throw new RangeError(
      `bounded integers need an integer upper bound K with 1 ≤ K ≤ 2^32, got ${K}; numpy's 64-bit Lemire path for larger K is not implemented`,
    );
  }
}

/**
 * Fills `out`, in order, with what numpy's `Generator.integers(0, K, size=out.length)` gives
 * for the default int64 dtype and endpoint=False, consuming `st` exactly as numpy does
 * (random_bounded_uint64_fill in numpy/random/src/distributions/distributions.c, reached via
 * `_rand_int64` in _bounded_integers.pyx.in; `Generator.integers` never uses the masked method).
 * With rng = K − 1:
 *  - rng = 0 (K = 1): all zeros, no draws consumed;
 *  - rng = 2^32 − 1 (K = 2^32): each value is a raw buffered `next_uint32`;
 *  - otherwise Lemire's method on 32-bit draws (buffered_bounded_lemire_uint32): m = x·K,
 *    leftover = m mod 2^32; if leftover < (2^32 − K) mod K draw again; result ⌊m / 2^32⌋.
 * The 32-bit draws are the `nextUint32` stream (low half of a 64-bit output first, then the
 * high half), taken in bulk with `fillUint32`; its buffered half persists across calls like
 * numpy's `has_uint32`.
 */
export function fillBoundedIntegers(st: Pcg64State, K: number, out: Uint32Array): void {
  requireSupportedBound(K);
  const n = out.length;
  if (K === 1) {
    out.fill(0);
    return;
  }
  if (K === TWO_POW_32) {
    fillUint32(st, out);
    return;
  }
  const threshold = lemireThreshold(K);
  if (n > 0) fillBoundedIntegersJs(st, K, threshold, out);
}

/**
 * numpy's Lemire threshold (UINT32_MAX − rng) mod (rng + 1) for rng = K − 1, i.e. 2^32 mod K.
 * Since it is below K, numpy's "leftover < K, then redraw while leftover < threshold" rejects
 * exactly the draws with leftover < threshold, and each draw is accepted or rejected on its own.
 */
export function lemireThreshold(K: number): number {
  return (TWO_POW_32 - K) % K;
}

/**
 * The Lemire loop. The document bootstrap draws its indices in WebAssembly ($bounded,
 * src/core/kernels/bounded.wat, held to this loop draw for draw by the tests); other callers (the
 * chunk bootstrap, the studies' samples) gained nothing measurable from it and use this loop.
 */
export function fillBoundedIntegersJs(
  st: Pcg64State,
  K: number,
  threshold: number,
  out: Uint32Array,
): void {
  const n = out.length;
  // Draw in blocks. The `remaining` outputs need at least `remaining` draws, so a block of
  // min(remaining, DRAW_BLOCK) draws is always consumed in full and the generator ends exactly
  // where numpy's would (including its buffered uint32 half).
  const draws = new Uint32Array(Math.min(n, DRAW_BLOCK));
  // ⌊x·K / 2^32⌋ exactly. For K ≤ 2^21, x·K < 2^53 is exact in one multiply. Otherwise split
  // K = kHigh·2^16 + kLow: x·kHigh and x·kLow are below 2^48, and
  // ⌊(x·kHigh + ⌊x·kLow / 2^16⌋) / 2^16⌋ = ⌊x·K / 2^32⌋ because the dropped part is < 1.
  const singleProduct = K <= SINGLE_PRODUCT_MAX_K;
  const kHigh = Math.floor(K * INV_2_16);
  const kLow = K - kHigh * 65536;
  let i = 0;
  while (i < n) {
    const size = Math.min(n - i, DRAW_BLOCK);
    fillUint32(st, draws, 0, size);
    if (singleProduct) {
      for (let j = 0; j < size; j++) {
        const x = draws[j] as number;
        if (Math.imul(x, K) >>> 0 < threshold) continue; // rejected: numpy draws again
        out[i++] = Math.floor(x * K * INV_2_32);
      }
    } else {
      for (let j = 0; j < size; j++) {
        const x = draws[j] as number;
        if (Math.imul(x, K) >>> 0 < threshold) continue; // rejected: numpy draws again
        out[i++] = Math.floor((x * kHigh + Math.floor(x * kLow * INV_2_16)) * INV_2_16);
      }
    }
  }
}

/**
 * One integer in [0, K) exactly as numpy's `random_bounded_uint64(bitgen, 0, K − 1, 0, false)`
 * (distributions.c), the single-draw form of `fillBoundedIntegers`: the same Lemire method on
 * buffered 32-bit draws, so a sequence of these equals `fillBoundedIntegers` with one K, and a
 * sequence with varying K is what numpy's `_shuffle_int` and `choice(replace=False)` consume.
 * (numpy's masked `random_interval`, used by `Generator.shuffle`, is a different stream.)
 */
export function nextBoundedInteger(st: Pcg64State, K: number): number {
  requireSupportedBound(K);
  if (K === 1) return 0;
  if (K === TWO_POW_32) return nextUint32(st);
  const threshold = lemireThreshold(K);
  let x = nextUint32(st);
  while (Math.imul(x, K) >>> 0 < threshold) x = nextUint32(st);
  if (K <= SINGLE_PRODUCT_MAX_K) return Math.floor(x * K * INV_2_32);
  const kHigh = Math.floor(K * INV_2_16);
  const kLow = K - kHigh * 65536;
  return Math.floor((x * kHigh + Math.floor(x * kLow * INV_2_16)) * INV_2_16);
}

/**
 * `np.random.default_rng(seed).integers(0, K, (B, K))` flattened row-major: row b (entries
 * b·K … b·K + K − 1) is bootstrap replicate b, each a draw of K documents with replacement.
 */
export function documentResampleIndices(seed: number, K: number, B: number): Uint32Array {
  requireSupportedBound(K);
  if (!Number.isSafeInteger(B) || B < 0) {
    throw new RangeError(`the number of replicates B must be a non-negative integer, got ${B}`);
  }
  const out = new Uint32Array(B * K);
  fillBoundedIntegers(createPcg64(seed), K, out);
  return out;
}
