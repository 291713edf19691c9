import { createPcg64, nextUint64Parts } from "./pcg64.js";

/**
 * Uniform doubles on [0, 1) from PCG64 seeded like `np.random.default_rng(seed)`:
 * numpy's `next_double`, (x >> 11)·2⁻⁵³ of each 64-bit output, so `uniformSource(s)()` gives
 * the values of `default_rng(s).random()`.
 */
export function uniformSource(seed: number): () => number {
  const state = createPcg64(seed);
  const parts = new Uint32Array(2);
  return () => {
    nextUint64Parts(state, parts);
    // high·2²¹ + (low >>> 11) is the top 53 bits of the 64-bit output.
    return (
      ((parts[0] as number) * 2097152 + ((parts[1] as number) >>> 11)) * 1.1102230246251565e-16
    );
  };
}
