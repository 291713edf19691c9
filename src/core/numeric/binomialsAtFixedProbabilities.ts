import { btrd } from "./binomial.js";

/** Most P(0) = qⁿ values kept over all probabilities (8 bytes each: 8 MiB). */
const POWER_CACHE_ENTRIES = 2 ** 20;

/**
 * Binomial(n, p_j) draws for a fixed list of probabilities p_j: for the same uniforms each draw
 * is the very number `binomialSampler(uniform)(n, p_j)` returns (same branches, same
 * floating-point operations in the same order), but what depends on p_j alone is computed once,
 * as numpy's binomial_t keeps its setup between draws of one (n, p): the symmetry flip, q = 1 − p
 * and the odds p/q; and the inversion's P(0) = qⁿ is kept per (j, n), computed by the same `**`
 * the first time (n·p < 10 bounds the n that need it; at most POWER_CACHE_ENTRIES are kept, past
 * that qⁿ is computed each time). The chunk bootstrap draws two binomials per document and
 * replicate, always with the same few probabilities, and most of its time was these setups.
 *
 * `maxTrials` is the largest n that will be asked for.
 */
export function binomialsAtFixedProbabilities(
  probabilities: Float64Array,
  maxTrials: number,
  uniform: () => number,
): (j: number, trials: number) => number {
  const { small, flipped, q, odds, powerAt, powerLength, entries } = fixedProbabilitySetup(
    probabilities,
    maxTrials,
  );
  // −1: not computed yet (qⁿ is positive).
  const powers = new Float64Array(entries).fill(-1);

  const smallDraw = (j: number, trials: number): number => {
    const s = small[j] as number;
    if (trials * s >= 10) return btrd(uniform, trials, s);
    let probability: number;
    const at = powerAt[j] as number;
    if (at >= 0 && trials < (powerLength[j] as number)) {
      probability = powers[at + trials] as number;
      if (probability < 0) {
        probability = (q[j] as number) ** trials;
        powers[at + trials] = probability;
      }
    } else probability = (q[j] as number) ** trials;
    // binomial.ts's inversion, from P(0) on.
    const r = odds[j] as number;
    let u = uniform();
    let x = 0;
    while (u > probability && x < trials) {
      u -= probability;
      probability *= (r * (trials - x)) / (x + 1);
      x++;
    }
    return x;
  };

  return (j: number, trials: number): number => {
    if (trials === 0) return 0;
    const p = probabilities[j] as number;
    if (p <= 0) return 0;
    if (p >= 1) return trials;
    return flipped[j] === 1 ? trials - smallDraw(j, trials) : smallDraw(j, trials);
  };
}

/** What the draws at each fixed probability p_j need, computed once (binomialsAtFixedProbabilities). */
export interface FixedProbabilitySetup {
  /** p or 1 − p, whichever is at most ½ (binomialSampler's symmetry step). */
  readonly small: Float64Array;
  /** 1 where p > ½ (the draw is then n minus a draw at 1 − p). */
  readonly flipped: Uint8Array;
  /** 1 − small. */
  readonly q: Float64Array;
  /** small / (1 − small). */
  readonly odds: Float64Array;
  /** Where slot j's cached qⁿ start among the `entries` (−1: not cached). */
  readonly powerAt: Int32Array;
  /** How many n from 0 on slot j's cache covers. */
  readonly powerLength: Int32Array;
  /** The cache's length, at most POWER_CACHE_ENTRIES. */
  readonly entries: number;
}

/**
 * The setups of binomialsAtFixedProbabilities, also read by the chunk bootstrap's WebAssembly
 * kernel (chunkBootstrapKernel.ts). Slots with p ≤ 0 or p ≥ 1 are left at zero (no draw reads
 * them). Inversion is used for n·small < 10 only, so slot j's cache needs n < ⌈10/small⌉ + 1.
 */
export function fixedProbabilitySetup(
  probabilities: Float64Array,
  maxTrials: number,
): FixedProbabilitySetup {
  const count = probabilities.length;
  const small = new Float64Array(count);
  const flipped = new Uint8Array(count);
  const q = new Float64Array(count);
  const odds = new Float64Array(count);
  const powerAt = new Int32Array(count).fill(-1);
  const powerLength = new Int32Array(count);
  let entries = 0;
  for (let j = 0; j < count; j++) {
    const p = probabilities[j] as number;
    if (p <= 0 || p >= 1) continue;
    const s = p > 0.5 ? 1 - p : p;
    small[j] = s;
    flipped[j] = p > 0.5 ? 1 : 0;
    q[j] = 1 - s;
    odds[j] = s / (1 - s);
    const length = Math.min(maxTrials + 1, Math.ceil(10 / s) + 1);
    if (entries + length <= POWER_CACHE_ENTRIES) {
      powerAt[j] = entries;
      powerLength[j] = length;
      entries += length;
    }
  }
  return { small, flipped, q, odds, powerAt, powerLength, entries };
}
