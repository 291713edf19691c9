import { createPcg64, fillUint32, nextUint64Parts, type Pcg64State } from "./pcg64.js";

/** 64-bit outputs generated per refill. */
const BUFFER_OUTPUTS = 1024;
/** 2⁻⁵³, the spacing of numpy's doubles on [0, 1). */
const INV_2_53 = 1.1102230246251565e-16;

/** Two-word scratch for `nextUniform` (module-level so single draws never allocate). */
const parts = new Uint32Array(2);

/**
 * Uniform doubles on [0, 1) from PCG64 seeded like `np.random.default_rng(seed)`: numpy's
 * `next_double`, (x >> 11)·2⁻⁵³ of each 64-bit output x, so the values are those of
 * `default_rng(seed).random(size)`. Outputs are generated in blocks; each arrives as its low
 * then its high 32-bit half (numpy's next_uint32 order, from a fresh state). A spawn key gives
 * `Generator(PCG64(SeedSequence(seed, spawn_key=spawnKey))).random(size)`.
 */
export function uniformSource(seed: number, spawnKey: readonly number[] = []): () => number {
  const state = createPcg64(seed, spawnKey);
  const words = new Uint32Array(2 * BUFFER_OUTPUTS);
  const values = new Float64Array(BUFFER_OUTPUTS);
  let next = BUFFER_OUTPUTS;
  return () => {
    if (next === BUFFER_OUTPUTS) {
      fillUint32(state, words);
      // A block at a time: one short loop that V8 optimises early, and each draw a load.
      for (let i = 0; i < BUFFER_OUTPUTS; i++)
        // high·2²¹ + (low >>> 11) is the top 53 bits of the 64-bit output.
        values[i] =
          ((words[2 * i + 1] as number) * 2097152 + ((words[2 * i] as number) >>> 11)) * INV_2_53;
      next = 0;
    }
    return values[next++] as number;
  };
}

/**
 * One `Generator.random()` draw from an existing generator: numpy's `next_double`,
 * (x >> 11)·2⁻⁵³ of the next 64-bit output x. Like numpy's next_uint64 it neither uses nor
 * clears a buffered 32-bit half, so it interleaves exactly with bounded-integer draws.
 */
export function nextUniform(st: Pcg64State): number {
  nextUint64Parts(st, parts);
  return ((parts[0] as number) * 2097152 + ((parts[1] as number) >>> 11)) * INV_2_53;
}
