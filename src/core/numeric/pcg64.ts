import { seedSequenceState } from "./seedSequence.js";

/**
 * numpy's PCG64 bit generator (PCG XSL-RR 128/64; numpy/random/src/pcg64/pcg64.h and
 * numpy/random/_pcg64.pyx), in 32-bit limb arithmetic so no BigInt is needed.
 *
 * Step:   s ← s·M + c (mod 2^128), M = 0x2360ed051fc65da4_4385df649fccf645, c odd.
 * Output: rotr64(hi64(s) ⊕ lo64(s), s ≫ 122), taken from the state *after* the step.
 */
export interface Pcg64State {
  /** LCG state s as four 32-bit limbs, least significant first. */
  readonly state: Uint32Array;
  /** LCG increment c (odd) as four 32-bit limbs, least significant first. */
  readonly increment: Uint32Array;
  /** numpy's `has_uint32`: the high half of the last 64-bit output is still unused. */
  hasUint32: boolean;
  /** numpy's `uinteger`: that buffered high half. */
  uinteger: number;
}

// The multiplier M as 32-bit limbs, least significant first (PCG_DEFAULT_MULTIPLIER_HIGH/LOW
// in pcg64.h), and the 16-bit halves of the three low limbs for exact high products.
const M0 = 0x9fccf645;
const M1 = 0x4385df64;
const M2 = 0x1fc65da4;
const M3 = 0x2360ed05;
const M0_HIGH = M0 >>> 16;
const M0_LOW = M0 & 0xffff;
const M1_HIGH = M1 >>> 16;
const M1_LOW = M1 & 0xffff;
const M2_HIGH = M2 >>> 16;
const M2_LOW = M2 & 0xffff;

const INV_2_16 = 1 / 65536;
const INV_2_32 = 1 / 4294967296;

/** Two-word scratch for single draws (module-level so the single-draw paths never allocate). */
const pair = new Uint32Array(2);

/**
 * ⌊a·m / 2^32⌋ for 32-bit a and m = mHigh·2^16 + mLow, exactly: a·mHigh and a·mLow are below
 * 2^48, and ⌊(a·mHigh + ⌊a·mLow / 2^16⌋) / 2^16⌋ equals it since the dropped fraction is < 1.
 */
function productHigh(a: number, mHigh: number, mLow: number): number {
  return Math.floor((a * mHigh + Math.floor(a * mLow * INV_2_16)) * INV_2_16);
}

/**
 * `steps` LCG steps, each followed by the XSL-RR output of the new state
 * (pcg_setseq_128_xsl_rr_64_random_r); output k goes to out[at + 2k] (low 32 bits) and
 * out[at + 2k + 1] (high 32 bits), which is also the order numpy's next_uint32 hands them out.
 *
 * Schoolbook product in 32-bit limbs: limb k of s·M + c is
 * Σ_{i+j=k} lo32(s_i·M_j) + Σ_{i+j=k−1} hi32(s_i·M_j) + c_k + carry_{k−1}, with lo32 from
 * `Math.imul` and hi32 from `productHigh`. Each sum has at most nine terms below 2^32, so it is
 * exact in a double; `>>> 0` reduces it modulo 2^32 and ⌊sum / 2^32⌋ is the next carry. Limb 3
 * is only needed modulo 2^32, so its products may wrap. The state lives in locals for the whole
 * loop (one function, no calls returning uint32, so V8 never boxes a number).
 */
function fillRawOutputs(st: Pcg64State, out: Uint32Array, at: number, steps: number): void {
  const c0 = st.increment[0] as number;
  const c1 = st.increment[1] as number;
  const c2 = st.increment[2] as number;
  const c3 = st.increment[3] as number;
  let s0 = st.state[0] as number;
  let s1 = st.state[1] as number;
  let s2 = st.state[2] as number;
  let s3 = st.state[3] as number;
  const end = at + 2 * steps;
  for (let i = at; i < end; i += 2) {
    let t = (Math.imul(s0, M0) >>> 0) + c0;
    const n0 = t >>> 0;
    t =
      (Math.imul(s0, M1) >>> 0) +
      (Math.imul(s1, M0) >>> 0) +
      productHigh(s0, M0_HIGH, M0_LOW) +
      c1 +
      Math.floor(t * INV_2_32);
    const n1 = t >>> 0;
    t =
      (Math.imul(s0, M2) >>> 0) +
      (Math.imul(s1, M1) >>> 0) +
      (Math.imul(s2, M0) >>> 0) +
      productHigh(s0, M1_HIGH, M1_LOW) +
      productHigh(s1, M0_HIGH, M0_LOW) +
      c2 +
      Math.floor(t * INV_2_32);
    const n2 = t >>> 0;
    t =
      Math.imul(s0, M3) +
      Math.imul(s1, M2) +
      Math.imul(s2, M1) +
      Math.imul(s3, M0) +
      productHigh(s0, M2_HIGH, M2_LOW) +
      productHigh(s1, M1_HIGH, M1_LOW) +
      productHigh(s2, M0_HIGH, M0_LOW) +
      c3 +
      Math.floor(t * INV_2_32);
    const n3 = t >>> 0;
    s0 = n0;
    s1 = n1;
    s2 = n2;
    s3 = n3;

    // XSL-RR: x = hi64 ⊕ lo64 = (a, b), rotated right by rot = the top 6 bits of the state.
    // Branch-free (rot ≥ 32 is a coin flip): swap a and b when rot ≥ 32, then rotate by rot mod
    // 32; `(v << (31 − r)) << 1` is v << (32 − r) and stays correct (0) when r = 0.
    const a = n3 ^ n1;
    const b = n2 ^ n0;
    const rot = n3 >>> 26;
    const swapBits = (a ^ b) & -(rot >>> 5);
    const xHigh = a ^ swapBits;
    const xLow = b ^ swapBits;
    const r = rot & 31;
    const back = 31 - r;
    out[i] = (xLow >>> r) | ((xHigh << back) << 1);
    out[i + 1] = (xHigh >>> r) | ((xLow << back) << 1);
  }
  st.state[0] = s0;
  st.state[1] = s1;
  st.state[2] = s2;
  st.state[3] = s3;
}

/**
 * PCG64 seeded from raw SeedSequence material, as numpy's `PCG64.__init__`: the eight uint32
 * words of `generate_state(4, np.uint64)` give four little-endian uint64 values v0..v3;
 * initstate = v0·2^64 + v1 and initseq = v2·2^64 + v3 (pcg64_set_seed, high word first).
 * Then pcg_setseq_128_srandom_r: s = 0, c = 2·initseq + 1, step, s += initstate, step.
 */
export function createPcg64FromSeedWords(words: Uint32Array): Pcg64State {
  if (words.length !== 8) {
    throw new RangeError(`PCG64 needs 8 uint32 seed words, got ${words.length}`);
  }
  const w = (i: number): number => words[i] as number;
  // Limbs least significant first: the low uint64 of each pair comes second in numpy.
  const initState = [w(2), w(3), w(0), w(1)];
  const initSeq = [w(6), w(7), w(4), w(5)];

  const increment = new Uint32Array(4);
  let carry = 1; // the "| 1" after the shift
  for (let i = 0; i < 4; i++) {
    const limb = initSeq[i] as number;
    increment[i] = ((limb << 1) | carry) >>> 0;
    carry = limb >>> 31;
  }

  const st: Pcg64State = { state: new Uint32Array(4), increment, hasUint32: false, uinteger: 0 };
  const discard = new Uint32Array(2);
  fillRawOutputs(st, discard, 0, 1);
  let sumCarry = 0;
  for (let i = 0; i < 4; i++) {
    const sum = (st.state[i] as number) + (initState[i] as number) + sumCarry;
    st.state[i] = sum >>> 0;
    sumCarry = sum >= 4294967296 ? 1 : 0;
  }
  fillRawOutputs(st, discard, 0, 1);
  return st;
}

/**
 * `np.random.PCG64(np.random.SeedSequence(seed, spawn_key=spawnKey))`; with the default empty
 * key this is `np.random.PCG64(seed)`, the bit generator of `np.random.default_rng(seed)`.
 * A key (i, j) gives the stream numpy hands out as `SeedSequence(seed).spawn(i + 1)[i]
 * .spawn(j + 1)[j]`, so independent streams are addressed by position, not by drawing order.
 */
export function createPcg64(seed: number, spawnKey: readonly number[] = []): Pcg64State {
  return createPcg64FromSeedWords(seedSequenceState(seed, 8, spawnKey));
}

/**
 * One raw 64-bit output (numpy's `pcg64_next64` / `random_raw`), written as
 * out[offset] = high 32 bits, out[offset + 1] = low 32 bits. Does not touch the uint32 buffer.
 */
export function nextUint64Parts(st: Pcg64State, out: Uint32Array, offset = 0): void {
  fillRawOutputs(st, pair, 0, 1);
  out[offset] = pair[1] as number;
  out[offset + 1] = pair[0] as number;
}

/**
 * numpy's `pcg64_next32`: a fresh 64-bit output yields its low 32 bits now and buffers the
 * high 32 bits for the next call.
 */
export function nextUint32(st: Pcg64State): number {
  if (st.hasUint32) {
    st.hasUint32 = false;
    return st.uinteger;
  }
  fillRawOutputs(st, pair, 0, 1);
  st.hasUint32 = true;
  st.uinteger = pair[1] as number;
  return pair[0] as number;
}

/**
 * out[from], …, out[from + count − 1] ← `count` successive `nextUint32(st)` draws, in bulk:
 * a pending buffered half is used first, whole 64-bit outputs are written straight into `out`,
 * and an odd last draw leaves its high half buffered, exactly as numpy's next_uint32 would.
 */
export function fillUint32(
  st: Pcg64State,
  out: Uint32Array,
  from = 0,
  count = out.length - from,
): void {
  if (count <= 0) return;
  let i = from;
  let remaining = count;
  if (st.hasUint32) {
    out[i++] = st.uinteger;
    st.hasUint32 = false;
    remaining--;
  }
  const steps = remaining >>> 1;
  fillRawOutputs(st, out, i, steps);
  i += 2 * steps;
  if (remaining & 1) {
    fillRawOutputs(st, pair, 0, 1);
    out[i] = pair[0] as number;
    st.hasUint32 = true;
    st.uinteger = pair[1] as number;
  }
}
