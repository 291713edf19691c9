/**
 * numpy's `SeedSequence` (numpy/random/bit_generator.pyx) for a single non-negative integer
 * seed and an optional spawn key, default pool size 4. It turns the seed (and spawn key) into a
 * pool of four 32-bit words and then expands the pool into as many state words as a bit
 * generator asks for.
 *
 * All arithmetic is on uint32 modulo 2^32: `Math.imul(a, b) >>> 0` is the wrapped product.
 */

/** Pool size of numpy's SeedSequence (DEFAULT_POOL_SIZE in bit_generator.pyx). */
export const SEED_SEQUENCE_POOL_SIZE = 4;

// Hash constants from bit_generator.pyx (after Melissa O'Neill's seed_seq_fe).
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
/** Half the bit width of uint32. */
const XSHIFT = 16;

const TWO_POW_32 = 4294967296;

/**
 * A non-negative safe integer split into 32-bit words, least significant first, as numpy's
 * `_int_to_uint32_array`: 0 gives [0]; otherwise words until the value is exhausted (values
 * below 2^32 give one word, larger safe integers two). `what` names the value in errors.
 */
function uint32Words(value: number, what: string): number[] {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(
      `${what} must be a non-negative safe integer (0 ≤ ${what} ≤ 2^53 − 1), got ${value}`,
    );
  }
  const words: number[] = [];
  if (value === 0) words.push(0);
  let rest = value;
  while (rest > 0) {
    words.push(rest % TWO_POW_32);
    rest = Math.floor(rest / TWO_POW_32);
  }
  return words;
}

/** The seed split into 32-bit words, least significant first (numpy's `_int_to_uint32_array`). */
export function seedEntropyWords(seed: number): Uint32Array {
  return Uint32Array.from(uint32Words(seed, "seed"));
}

/**
 * numpy's `SeedSequence.get_assembled_entropy` for `SeedSequence(seed, spawn_key=spawnKey)`:
 * the seed's words, then each spawn-key element's words in order (each element split like the
 * seed, so 0 is one word [0] and an element ≥ 2^32 takes two). When the spawn key is non-empty
 * the seed's words are first zero-padded to the pool size (numpy ≥ 1.19, gh-16539: otherwise
 * seed 0 with key (0,) would be the entropy [0, 0] of the unspawned `SeedSequence([0, 0])`);
 * with an empty key nothing is padded, so unspawned streams keep their old values.
 * Example: seed 5, key (3, 1) → [5, 0, 0, 0, 3, 1].
 */
export function seedSequenceEntropy(
  seed: number,
  spawnKey: readonly number[] = [],
  poolSize: number = SEED_SEQUENCE_POOL_SIZE,
): Uint32Array {
  const words = uint32Words(seed, "seed");
  if (spawnKey.length > 0) {
    while (words.length < poolSize) words.push(0);
    for (const element of spawnKey) words.push(...uint32Words(element, "spawn key element"));
  }
  return Uint32Array.from(words);
}

/**
 * The entropy pool of numpy's `SeedSequence.mix_entropy`:
 *  1. pool[i] = hashmix(entropy[i] or 0) for i < poolSize, with one running hash multiplier;
 *  2. every pool word is mixed with hashmix of every other pool word (src outer, dst inner);
 *  3. entropy words beyond the pool are folded into every pool word the same way.
 * hashmix(v) = let h ← h·MULT_A after v ← v ⊕ h; v ← v·h; v ⊕ (v ≫ 16).
 * mix(x, y) = r ⊕ (r ≫ 16) with r = MIX_MULT_L·x − MIX_MULT_R·y (mod 2^32).
 */
export function seedSequencePool(
  entropy: ArrayLike<number>,
  poolSize: number = SEED_SEQUENCE_POOL_SIZE,
): Uint32Array {
  const pool = new Uint32Array(poolSize);
  let hashConst = INIT_A;
  const hashmix = (value: number): number => {
    let v = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    return (v ^ (v >>> XSHIFT)) >>> 0;
  };
  const mix = (x: number, y: number): number => {
    const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
    return (r ^ (r >>> XSHIFT)) >>> 0;
  };

  for (let i = 0; i < poolSize; i++) {
    pool[i] = hashmix(i < entropy.length ? (entropy[i] as number) : 0);
  }
  for (let src = 0; src < poolSize; src++) {
    for (let dst = 0; dst < poolSize; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst] as number, hashmix(pool[src] as number));
    }
  }
  for (let src = poolSize; src < entropy.length; src++) {
    for (let dst = 0; dst < poolSize; dst++) {
      pool[dst] = mix(pool[dst] as number, hashmix(entropy[src] as number));
    }
  }
  return pool;
}

/**
 * numpy's `SeedSequence.generate_state(nWords, np.uint32)`: cycle through the pool and hash
 * each word with a second running multiplier,
 * w ← pool[i mod n] ⊕ h; h ← h·MULT_B; w ← w·h; out[i] = w ⊕ (w ≫ 16), h starting at INIT_B.
 * A request for k uint64 words is the same as 2k uint32 words read little-endian in pairs.
 */
export function generateState(pool: Uint32Array, nWords: number): Uint32Array {
  if (!Number.isSafeInteger(nWords) || nWords < 0) {
    throw new RangeError(`nWords must be a non-negative integer, got ${nWords}`);
  }
  const out = new Uint32Array(nWords);
  let hashConst = INIT_B;
  for (let i = 0; i < nWords; i++) {
    let w = ((pool[i % pool.length] as number) ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_B) >>> 0;
    w = Math.imul(w, hashConst) >>> 0;
    out[i] = (w ^ (w >>> XSHIFT)) >>> 0;
  }
  return out;
}

/**
 * `np.random.SeedSequence(seed, spawn_key=spawnKey).generate_state(words)` as uint32 words;
 * the default empty key is `SeedSequence(seed)`.
 */
export function seedSequenceState(
  seed: number,
  words: number,
  spawnKey: readonly number[] = [],
): Uint32Array {
  return generateState(seedSequencePool(seedSequenceEntropy(seed, spawnKey)), words);
}
