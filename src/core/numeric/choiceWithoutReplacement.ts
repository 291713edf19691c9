import { nextBoundedInteger } from "./boundedIntegers.js";
import type { Pcg64State } from "./pcg64.js";

/** Largest population whose indices fit a Uint32Array and numpy's 32-bit bounded draws. */
const MAX_POPULATION = 4294967296;
/** numpy switches to the partial-shuffle branch only for populations above this size. */
const SMALL_POPULATION = 10000;
/** With shuffle=True numpy takes the partial shuffle when K > ⌊M / 50⌋ (its tuned cutoff). */
const SHUFFLE_CUTOFF = 50;
/** Marks an empty slot of Floyd's membership table (numpy uses uint64 −1; indices are ≥ 0). */
const EMPTY = -1;

/**
 * K distinct indices from 0 … M − 1, exactly as numpy 2.x's
 * `Generator.choice(M, K, replace=False)` with p=None and shuffle=True
 * (numpy/random/_generator.pyx), consuming `st` draw for draw as numpy does.
 *
 * Every draw is a uniform integer in [0, i] from numpy's `random_bounded_uint64` with
 * use_masked=false, i.e. `nextBoundedInteger(st, i + 1)` (32-bit Lemire on buffered draws).
 *  - M > 10000 and K > ⌊M / 50⌋: Fisher–Yates on 0 … M − 1 stopped after K swaps
 *    (numpy's `_shuffle_int(M, max(M − K, 1))`: i from M − 1 down to max(M − K, 1), swap
 *    i with a draw in [0, i]); the result is the last K entries.
 *  - otherwise Floyd's algorithm: for j = M − K … M − 1 draw v in [0, j] and take v, or j if v
 *    was already taken, into slot j − (M − K); then the K slots are shuffled the same way
 *    (`_shuffle_int(K, 1)`, K − 1 draws).
 * Example: `choiceWithoutReplacement(createPcg64(1), 1000, 5)` is [510, 34, 753, 949, 471],
 * numpy's `default_rng(1).choice(1000, 5, replace=False)`.
 */
export function choiceWithoutReplacement(st: Pcg64State, M: number, K: number): Uint32Array {
  if (!Number.isInteger(M) || M < 0 || M > MAX_POPULATION) {
    throw new RangeError(
      `the population size M must be an integer with 0 ≤ M ≤ 2^32, got ${M}; numpy's 64-bit draws for larger M are not implemented`,
    );
  }
  if (!Number.isInteger(K) || K < 0 || K > M) {
    throw new RangeError(
      `the sample size K must be an integer with 0 ≤ K ≤ M = ${M} (no replacement), got ${K}`,
    );
  }
  if (M > SMALL_POPULATION && K > Math.floor(M / SHUFFLE_CUTOFF)) {
    const population = new Uint32Array(M);
    for (let i = 0; i < M; i++) population[i] = i;
    shuffleFrom(st, population, Math.max(M - K, 1));
    return population.slice(M - K);
  }
  const chosen = floydSample(st, M, K);
  shuffleFrom(st, chosen, 1);
  return chosen;
}

/**
 * numpy's `_shuffle_int(n, first)`: for i = n − 1 down to `first`, swap data[i] with
 * data[draw in [0, i]]. (Not `Generator.shuffle`, which draws with the masked method.)
 */
function shuffleFrom(st: Pcg64State, data: Uint32Array, first: number): void {
  for (let i = data.length - 1; i >= first; i--) {
    const j = nextBoundedInteger(st, i + 1);
    const held = data[j] as number;
    data[j] = data[i] as number;
    data[i] = held;
  }
}

/**
 * Floyd's sample of K from M in draw order, before the final shuffle. Membership is kept as
 * numpy keeps it, in an open-addressing table of 2^⌈log2(⌊1.2·K⌋ + 1)⌉ slots (numpy's
 * `_gen_mask(⌊1.2·K⌋) + 1`) with linear probing from value mod size; any exact set would give
 * the same indices, this one just bounds memory by K rather than M.
 */
function floydSample(st: Pcg64State, M: number, K: number): Uint32Array {
  const chosen = new Uint32Array(K);
  let mask = 0;
  const setSize = Math.floor(1.2 * K);
  while (mask < setSize) mask = mask * 2 + 1; // smallest 2^b − 1 ≥ setSize
  const table = new Float64Array(mask + 1).fill(EMPTY);
  const slots = mask + 1;
  const first = M - K;
  for (let j = first; j < M; j++) {
    const v = nextBoundedInteger(st, j + 1);
    if (insertIfAbsent(table, slots, v)) {
      chosen[j - first] = v;
    } else {
      // j exceeds every earlier pick, so it is never in the table yet.
      insertIfAbsent(table, slots, j);
      chosen[j - first] = j;
    }
  }
  return chosen;
}

/** Adds `value` to the linear-probing table unless present; true when it was added. */
function insertIfAbsent(table: Float64Array, slots: number, value: number): boolean {
  let loc = value % slots;
  while (table[loc] !== EMPTY) {
    if (table[loc] === value) return false;
    loc = (loc + 1) % slots;
  }
  table[loc] = value;
  return true;
}
