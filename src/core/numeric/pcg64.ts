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
  /** Scratch: high 32 bits of the most recent 64-bit output (low bits are returned). */
  outputHigh: number;
}

// The multiplier M in 16-bit limbs, least significant first (PCG_DEFAULT_MULTIPLIER_HIGH/LOW
// in pcg64.h). 32-bit state limb × 16-bit multiplier limb < 2^48, exact in a double.
const M0 = 0xf645;
const M1 = 0x9fcc;
const M2 = 0xdf64;
const M3 = 0x4385;
const M4 = 0x5da4;
const M5 = 0x1fc6;
const M6 = 0xed05;
const M7 = 0x2360;

const INV_2_16 = 1 / 65536;

/**
 * One LCG step s ← s·M + c (mod 2^128), then the XSL-RR output of the new state
 * (pcg_setseq_128_xsl_rr_64_random_r). Returns the low 32 bits of the 64-bit output and
 * writes the high 32 bits to `st.outputHigh`.
 *
 * The product is accumulated in 16-bit columns: column k holds Σ_{2i+j=k} s_i·M_j (+ c at
 * even k), at most four 48-bit products plus a carry, so every sum stays below 2^53.
 * `t & 0xffff` is exact for any integral double (ToInt32 reduces modulo 2^32).
 */
function stepAndOutput(st: Pcg64State): number {
  const s = st.state;
  const c = st.increment;
  const s0 = s[0] as number;
  const s1 = s[1] as number;
  const s2 = s[2] as number;
  const s3 = s[3] as number;

  let t = s0 * M0 + (c[0] as number);
  const r0 = t & 0xffff;
  t = s0 * M1 + (t - r0) * INV_2_16;
  const r1 = t & 0xffff;
  t = s0 * M2 + s1 * M0 + (c[1] as number) + (t - r1) * INV_2_16;
  const r2 = t & 0xffff;
  t = s0 * M3 + s1 * M1 + (t - r2) * INV_2_16;
  const r3 = t & 0xffff;
  t = s0 * M4 + s1 * M2 + s2 * M0 + (c[2] as number) + (t - r3) * INV_2_16;
  const r4 = t & 0xffff;
  t = s0 * M5 + s1 * M3 + s2 * M1 + (t - r4) * INV_2_16;
  const r5 = t & 0xffff;
  t = s0 * M6 + s1 * M4 + s2 * M2 + s3 * M0 + (c[3] as number) + (t - r5) * INV_2_16;
  const r6 = t & 0xffff;
  t = s0 * M7 + s1 * M5 + s2 * M3 + s3 * M1 + (t - r6) * INV_2_16;
  const r7 = t & 0xffff;

  const n0 = r0 | (r1 << 16);
  const n1 = r2 | (r3 << 16);
  const n2 = r4 | (r5 << 16);
  const n3 = r6 | (r7 << 16);
  s[0] = n0;
  s[1] = n1;
  s[2] = n2;
  s[3] = n3;

  // XSL-RR: x = hi64 ⊕ lo64, rotated right by the top 6 bits of the state.
  let xHigh = n3 ^ n1;
  let xLow = n2 ^ n0;
  let rot = r7 >>> 10;
  if (rot >= 32) {
    const tmp = xHigh;
    xHigh = xLow;
    xLow = tmp;
    rot -= 32;
  }
  // `(v << (31 − r)) << 1` is v << (32 − r) and stays correct (0) when r = 0.
  const back = 31 - rot;
  st.outputHigh = ((xHigh >>> rot) | ((xLow << back) << 1)) >>> 0;
  return ((xLow >>> rot) | ((xHigh << back) << 1)) >>> 0;
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

  const st: Pcg64State = {
    state: new Uint32Array(4),
    increment,
    hasUint32: false,
    uinteger: 0,
    outputHigh: 0,
  };
  stepAndOutput(st);
  let sumCarry = 0;
  for (let i = 0; i < 4; i++) {
    const sum = (st.state[i] as number) + (initState[i] as number) + sumCarry;
    st.state[i] = sum >>> 0;
    sumCarry = sum >= 4294967296 ? 1 : 0;
  }
  stepAndOutput(st);
  st.outputHigh = 0;
  return st;
}

/** `np.random.PCG64(seed)` (equivalently the bit generator of `np.random.default_rng(seed)`). */
export function createPcg64(seed: number): Pcg64State {
  return createPcg64FromSeedWords(seedSequenceState(seed, 8));
}

/**
 * One raw 64-bit output (numpy's `pcg64_next64` / `random_raw`), written as
 * out[offset] = high 32 bits, out[offset + 1] = low 32 bits. Does not touch the uint32 buffer.
 */
export function nextUint64Parts(st: Pcg64State, out: Uint32Array, offset = 0): void {
  const low = stepAndOutput(st);
  out[offset] = st.outputHigh;
  out[offset + 1] = low;
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
  const low = stepAndOutput(st);
  st.hasUint32 = true;
  st.uinteger = st.outputHigh;
  return low;
}
