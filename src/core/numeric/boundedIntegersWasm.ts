import type { Pcg64State } from "./pcg64.js";

/**
 * numpy's PCG64 + Lemire bounded integers as a WebAssembly kernel: the same stream as
 * `fillBoundedIntegers` in JS, about four times faster, because WebAssembly has 64-bit
 * integers (the JS version multiplies 128-bit states in 32-bit limbs held in doubles).
 *
 * The module is assembled here from its instructions (below, one step per line), so there is no
 * binary artefact and no toolchain. Memory: the PCG64 state at 0 (s_lo, s_hi, c_lo, c_hi as
 * little-endian i64), numpy's `has_uint32` at 32 and `uinteger` at 36, the outputs from 64.
 *
 * bounded(K, threshold, count) writes `count` integers in [0, K), exactly numpy's
 * buffered_bounded_lemire_uint32 on next_uint32 draws: x·K as a 64-bit product m, rejected when
 * m mod 2^32 < threshold (= 2^32 mod K), else ⌊m / 2^32⌋. Each 64-bit output gives its low half
 * first; a high half left over at the end is buffered as numpy buffers it.
 * PCG64 step (XSL-RR 128/64): s ← s·M + c mod 2^128 with
 *   s_lo' = s_lo·M_lo + c_lo,  s_hi' = mulhi(s_lo, M_lo) + s_lo·M_hi + s_hi·M_lo + c_hi + carry,
 * output rotr64(s_hi' ⊕ s_lo', s_hi' ≫ 58). mulhi (the high 64 bits of a 64×64 product) is
 * built from four 32×32 products, since WebAssembly 1.0 has no widening multiply.
 */

const M_LOW = 0x4385df649fccf645n;
const M_HIGH = 0x2360ed051fc65da4n;
const M_LOW_0 = 0x9fccf645n; // the 32-bit halves of M_lo, for mulhi
const M_LOW_1 = 0x4385df64n;
const MASK_32 = 0xffffffffn;

/** Byte offset of the outputs in the kernel's memory, and how many fit per call. */
const OUTPUT_AT = 64;
const PAGES = 5;
export const WASM_BLOCK = ((PAGES * 65536 - OUTPUT_AT) >>> 2) & ~1023;

// ---- a minimal WebAssembly encoder (the binary format, §5 of the core specification)
function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}
function signedLeb(value: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asIntN(64, value);
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}
const vec = (items: number[][]): number[] => [...unsignedLeb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [
  id,
  ...unsignedLeb(body.length),
  ...body,
];
const name = (text: string): number[] => vec([...text].map((c) => [c.charCodeAt(0)]));

const I32 = 0x7f;
const I64 = 0x7e;
const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  i32Load: 0x28,
  i64Load: 0x29,
  i32Store: 0x36,
  i64Store: 0x37,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i64LtU: 0x54,
  i32Add: 0x6a,
  i32Shl: 0x74,
  i64Add: 0x7c,
  i64Mul: 0x7e,
  i64And: 0x83,
  i64Xor: 0x85,
  i64ShrU: 0x88,
  i64Rotr: 0x8a,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
} as const;
const EMPTY = 0x40;
const get = (local: number) => [op.get, local];
const set = (local: number) => [op.set, local];
const i32 = (v: number) => [op.i32Const, ...signedLeb(BigInt(v))];
const i64 = (v: bigint) => [0x42, ...signedLeb(v)];
const load32 = (at: number) => [...i32(0), op.i32Load, 2, ...unsignedLeb(at)];
const load64 = (at: number) => [...i32(0), op.i64Load, 3, ...unsignedLeb(at)];
const store32 = (at: number, value: number[]) => [...i32(0), ...value, op.i32Store, 2, at];
const store64 = (at: number, value: number[]) => [...i32(0), ...value, op.i64Store, 3, at];

// Locals: parameters first.
const K = 0;
const THRESHOLD = 1;
const COUNT = 2;
const [PTR, END, LO, HI, CLO, CHI, KX, V, M, A0, A1, P01, P10, NLO] = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
];
const I32_LOCALS = 2; // PTR, END
const I64_LOCALS = 12; // LO … NLO

/** x (an i64 below 2^32, on the stack) → store ⌊x·K / 2^32⌋ at PTR and advance, unless rejected. */
const lemire = (x: number[]) => [
  ...x,
  ...get(KX),
  op.i64Mul,
  ...set(M),
  ...get(M),
  op.i32WrapI64,
  ...get(THRESHOLD),
  op.i32LtU,
  op.i32Eqz,
  op.if,
  EMPTY,
  ...get(PTR),
  ...get(M),
  ...i64(32n),
  op.i64ShrU,
  op.i32WrapI64,
  op.i32Store,
  2,
  0,
  ...get(PTR),
  ...i32(4),
  op.i32Add,
  ...set(PTR),
  op.end,
];

const body = [
  ...load64(0),
  ...set(LO),
  ...load64(8),
  ...set(HI),
  ...load64(16),
  ...set(CLO),
  ...load64(24),
  ...set(CHI),
  ...get(K),
  op.i64ExtendI32U,
  ...set(KX),
  ...i32(OUTPUT_AT),
  ...set(PTR),
  ...i32(OUTPUT_AT),
  ...get(COUNT),
  ...i32(2),
  op.i32Shl,
  op.i32Add,
  ...set(END),
  // A buffered high half is the first draw.
  ...load32(32),
  op.if,
  EMPTY,
  ...store32(32, i32(0)),
  ...lemire([...load32(36), op.i64ExtendI32U]),
  op.end,
  op.block,
  EMPTY,
  op.loop,
  EMPTY,
  ...get(PTR),
  ...get(END),
  op.i32GeU,
  op.brIf,
  1,
  // mulhi(s_lo, M_lo) from 32-bit halves: p00 = a0·b0, p01 = a0·b1, p10 = a1·b0, p11 = a1·b1;
  // mid = hi32(p00) + lo32(p01) + lo32(p10) (< 3·2^32); high = p11 + hi32(p01) + hi32(p10) + hi32(mid).
  ...get(LO),
  ...i64(MASK_32),
  op.i64And,
  ...set(A0),
  ...get(LO),
  ...i64(32n),
  op.i64ShrU,
  ...set(A1),
  ...get(A0),
  ...i64(M_LOW_1),
  op.i64Mul,
  ...set(P01),
  ...get(A1),
  ...i64(M_LOW_0),
  op.i64Mul,
  ...set(P10),
  // V ← mid
  ...get(A0),
  ...i64(M_LOW_0),
  op.i64Mul,
  ...i64(32n),
  op.i64ShrU,
  ...get(P01),
  ...i64(MASK_32),
  op.i64And,
  op.i64Add,
  ...get(P10),
  ...i64(MASK_32),
  op.i64And,
  op.i64Add,
  ...set(V),
  // NLO ← s_lo·M_lo + c_lo (mod 2^64)
  ...get(LO),
  ...i64(M_LOW),
  op.i64Mul,
  ...get(CLO),
  op.i64Add,
  ...set(NLO),
  // HI ← p11 + hi32(p01) + hi32(p10) + hi32(mid) + s_lo·M_hi + s_hi·M_lo + c_hi + carry
  ...get(A1),
  ...i64(M_LOW_1),
  op.i64Mul,
  ...get(P01),
  ...i64(32n),
  op.i64ShrU,
  op.i64Add,
  ...get(P10),
  ...i64(32n),
  op.i64ShrU,
  op.i64Add,
  ...get(V),
  ...i64(32n),
  op.i64ShrU,
  op.i64Add,
  ...get(LO),
  ...i64(M_HIGH),
  op.i64Mul,
  op.i64Add,
  ...get(HI),
  ...i64(M_LOW),
  op.i64Mul,
  op.i64Add,
  ...get(CHI),
  op.i64Add,
  ...get(NLO),
  ...get(CLO),
  op.i64LtU,
  op.i64ExtendI32U,
  op.i64Add,
  ...set(HI),
  ...get(NLO),
  ...set(LO),
  // V ← rotr64(s_hi ⊕ s_lo, s_hi ≫ 58)
  ...get(HI),
  ...get(LO),
  op.i64Xor,
  ...get(HI),
  ...i64(58n),
  op.i64ShrU,
  op.i64Rotr,
  ...set(V),
  ...lemire([...get(V), ...i64(MASK_32), op.i64And]),
  // Done after the low half: buffer the high half, as numpy's next_uint32 does.
  ...get(PTR),
  ...get(END),
  op.i32GeU,
  op.if,
  EMPTY,
  ...store32(36, [...get(V), ...i64(32n), op.i64ShrU, op.i32WrapI64]),
  ...store32(32, i32(1)),
  op.br,
  2,
  op.end,
  ...lemire([...get(V), ...i64(32n), op.i64ShrU]),
  op.br,
  0,
  op.end,
  op.end,
  ...store64(0, get(LO)),
  ...store64(8, get(HI)),
  op.end,
];

function assemble(): Uint8Array {
  const functionType = [0x60, ...vec([[I32], [I32], [I32]]), ...vec([])];
  const code = [
    ...vec([
      [...unsignedLeb(I32_LOCALS), I32],
      [...unsignedLeb(I64_LOCALS), I64],
    ]),
    ...body,
  ];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec([functionType])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, ...unsignedLeb(PAGES)]])),
    ...section(
      7,
      vec([
        [...name("memory"), 0x02, 0],
        [...name("bounded"), 0x00, 0],
      ]),
    ),
    ...section(10, vec([[...unsignedLeb(code.length), ...code]])),
  ]);
}

interface Kernel {
  readonly words: Uint32Array;
  readonly bounded: (K: number, threshold: number, count: number) => void;
}
/** The part of the WebAssembly JS API used here (the project's lib settings do not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}
let kernel: Kernel | null | undefined;

/** The kernel, instantiated once per thread; null where WebAssembly is unavailable. */
function boundedKernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  try {
    if (!wasm) throw new Error("no WebAssembly");
    const { exports } = new wasm.Instance(new wasm.Module(assemble()));
    kernel = {
      words: new Uint32Array((exports.memory as { buffer: ArrayBuffer }).buffer),
      bounded: exports.bounded as Kernel["bounded"],
    };
  } catch {
    kernel = null;
  }
  return kernel;
}

/**
 * `fillBoundedIntegers` for 2 ≤ K < 2^32 through the kernel; false (nothing consumed) where
 * WebAssembly is unavailable, so the caller falls back to the JS loop.
 */
export function fillBoundedIntegersWasm(
  st: Pcg64State,
  K: number,
  threshold: number,
  out: Uint32Array,
): boolean {
  const k = boundedKernel();
  if (!k) return false;
  const { words } = k;
  words.set(st.state, 0);
  words.set(st.increment, 4);
  words[8] = st.hasUint32 ? 1 : 0;
  words[9] = st.uinteger;
  const first = OUTPUT_AT >>> 2;
  for (let at = 0; at < out.length; at += WASM_BLOCK) {
    const count = Math.min(WASM_BLOCK, out.length - at);
    k.bounded(K | 0, threshold | 0, count);
    out.set(words.subarray(first, first + count), at);
  }
  st.state.set(words.subarray(0, 4));
  st.hasUint32 = words[8] === 1;
  st.uinteger = words[9] as number;
  return true;
}
