import type { Pcg64State } from "./pcg64.js";
import { FunctionBuilder, i32Const, i64Const, memory, op, VOID } from "./wasmEncoder.js";
import { instantiateKernel, type KernelMemory, reserve } from "./wasmInstance.js";

/**
 * numpy's PCG64 stream and its Lemire bounded integers as a WebAssembly kernel: the same
 * integers as the JS loop of fillBoundedIntegers, five times faster, because WebAssembly has
 * 64-bit integers where JS multiplies the 128-bit state in 32-bit limbs held in doubles.
 * (The document bootstrap's replicate loop was tried here too and was no faster than its JS
 * form: it is bound by the latency of its floating-point sums, not by instructions.)
 *
 * PCG64 step (XSL-RR 128/64, numpy/random/src/pcg64/pcg64.h): s ← s·M + c mod 2^128, i.e.
 *   s_lo' = s_lo·M_lo + c_lo,  s_hi' = mulhi(s_lo, M_lo) + s_lo·M_hi + s_hi·M_lo + c_hi + carry,
 * output rotr64(s_hi' ⊕ s_lo', s_hi' ≫ 58). mulhi (the high half of a 64×64 product) is built
 * from four 32×32 products: WebAssembly 1.0 has no widening multiply.
 * next_uint32: a fresh output gives its low half and buffers the high half (numpy's has_uint32).
 * Lemire (buffered_bounded_lemire_uint32): m = x·K; rejected when m mod 2^32 < 2^32 mod K, else
 * ⌊m / 2^32⌋.
 *
 * Memory: the generator at 0 (s_lo, s_hi, c_lo, c_hi as little-endian i64; has_uint32 at 32,
 * the buffered half at 36), data from 64. Instances are per thread.
 */

const M_LOW = 0x4385df649fccf645n;
const M_HIGH = 0x2360ed051fc65da4n;
const M_LOW_0 = 0x9fccf645n;
const M_LOW_1 = 0x4385df64n;
const MASK_32 = 0xffffffffn;
/** Where the kernel's data starts: the generator occupies the first 64 bytes. */
export const DATA_AT = 64;

/** The generator's locals, loaded from memory at entry and stored back at exit. */
function withGenerator(f: FunctionBuilder): FunctionBuilder {
  return f
    .locals("i64", "lo", "hi", "clo", "chi", "half", "v", "a0", "a1", "p01", "p10", "nlo", "x", "m")
    .locals("i64", "kx")
    .locals("i32", "has");
}

function loadGenerator(f: FunctionBuilder): number[] {
  const at0 = i32Const(0);
  return [
    ...[...at0, ...memory(op.i64Load, 3, 0), ...f.set("lo")],
    ...[...at0, ...memory(op.i64Load, 3, 8), ...f.set("hi")],
    ...[...at0, ...memory(op.i64Load, 3, 16), ...f.set("clo")],
    ...[...at0, ...memory(op.i64Load, 3, 24), ...f.set("chi")],
    ...[...at0, ...memory(op.i32Load, 2, 32), ...f.set("has")],
    ...[...at0, ...memory(op.i32Load, 2, 36), op.i64ExtendI32U, ...f.set("half")],
  ];
}

function storeGenerator(f: FunctionBuilder): number[] {
  const at0 = i32Const(0);
  return [
    ...[...at0, ...f.get("lo"), ...memory(op.i64Store, 3, 0)],
    ...[...at0, ...f.get("hi"), ...memory(op.i64Store, 3, 8)],
    ...[...at0, ...f.get("has"), ...memory(op.i32Store, 2, 32)],
    ...[...at0, ...f.get("half"), op.i32WrapI64, ...memory(op.i32Store, 2, 36)],
  ];
}

/** v ← the next 64-bit output: one PCG64 step, then XSL-RR. */
function step(f: FunctionBuilder): number[] {
  const { get, set } = f;
  const shr32 = [...i64Const(32n), op.i64ShrU];
  const low32 = [...i64Const(MASK_32), op.i64And];
  return [
    // a0, a1: the halves of s_lo; p01 = a0·b1, p10 = a1·b0 (b0, b1: the halves of M_lo)
    ...[...get("lo"), ...low32, ...set("a0"), ...get("lo"), ...shr32, ...set("a1")],
    ...[...get("a0"), ...i64Const(M_LOW_1), op.i64Mul, ...set("p01")],
    ...[...get("a1"), ...i64Const(M_LOW_0), op.i64Mul, ...set("p10")],
    // v ← mid = hi32(a0·b0) + lo32(p01) + lo32(p10), below 3·2^32
    ...[...get("a0"), ...i64Const(M_LOW_0), op.i64Mul, ...shr32],
    ...[...get("p01"), ...low32, op.i64Add, ...get("p10"), ...low32, op.i64Add, ...set("v")],
    // nlo ← s_lo·M_lo + c_lo mod 2^64 (its carry is nlo < c_lo)
    ...[...get("lo"), ...i64Const(M_LOW), op.i64Mul, ...get("clo"), op.i64Add, ...set("nlo")],
    // hi ← a1·b1 + hi32(p01) + hi32(p10) + hi32(mid) + s_lo·M_hi + s_hi·M_lo + c_hi + carry
    ...[...get("a1"), ...i64Const(M_LOW_1), op.i64Mul],
    ...[...get("p01"), ...shr32, op.i64Add, ...get("p10"), ...shr32, op.i64Add],
    ...[...get("v"), ...shr32, op.i64Add],
    ...[...get("lo"), ...i64Const(M_HIGH), op.i64Mul, op.i64Add],
    ...[...get("hi"), ...i64Const(M_LOW), op.i64Mul, op.i64Add],
    ...[...get("chi"), op.i64Add],
    ...[...get("nlo"), ...get("clo"), op.i64LtU, op.i64ExtendI32U, op.i64Add, ...set("hi")],
    ...[...get("nlo"), ...set("lo")],
    // v ← rotr64(s_hi ⊕ s_lo, s_hi ≫ 58)
    ...[...get("hi"), ...get("lo"), op.i64Xor, ...get("hi"), ...i64Const(58n), op.i64ShrU],
    ...[op.i64Rotr, ...set("v")],
  ];
}

/** x ← the next uint32 draw (buffered high half first, else a fresh step's low half). */
function nextUint32(f: FunctionBuilder): number[] {
  const { get, set } = f;
  return [
    ...get("has"),
    op.if,
    VOID,
    ...[...get("half"), ...set("x"), ...i32Const(0), ...set("has")],
    op.else,
    ...step(f),
    // use the low half now, buffer the high half
    ...[...get("v"), ...i64Const(32n), op.i64ShrU, ...set("half"), ...i32Const(1), ...set("has")],
    ...[...get("v"), ...i64Const(MASK_32), op.i64And, ...set("x")],
    op.end,
  ];
}

/**
 * Lemire on draw x: m = x·K; unless m mod 2^32 < threshold (rejected), store ⌊m / 2^32⌋·scale
 * (scale 1: the integer; the bootstrap stores byte offsets of its documents' records).
 */
function lemire(f: FunctionBuilder): number[] {
  const { get, set } = f;
  return [
    ...[...get("x"), ...get("kx"), op.i64Mul, ...set("m")],
    ...[...get("m"), op.i32WrapI64, ...get("threshold"), op.i32LtU, op.i32Eqz],
    op.if,
    VOID,
    ...[...get("ptr"), ...get("m"), ...i64Const(32n), op.i64ShrU, op.i32WrapI64],
    ...[...get("scale"), op.i32Mul, ...memory(op.i32Store, 2)],
    ...[...get("ptr"), ...i32Const(4), op.i32Add, ...set("ptr")],
    op.end,
  ];
}

/**
 * Integers in [0, K) into memory [ptr, end), Lemire's method on nextUint32 draws: first a
 * buffered half if there is one; then, while two or more are wanted, both halves of each fresh
 * output in turn (low, then high: nextUint32's order, without its buffer in between); then one
 * at a time.
 */
function fillBounded(f: FunctionBuilder): number[] {
  const { get, set } = f;
  const oneAtATime = [
    op.block,
    VOID,
    op.loop,
    VOID,
    ...[...get("ptr"), ...get("end"), op.i32GeU, op.brIf, 1],
    ...nextUint32(f),
    ...lemire(f),
    ...[op.br, 0],
    op.end,
    op.end,
  ];
  return [
    ...[...get("has"), ...get("ptr"), ...get("end"), op.i32LtU, op.i32And],
    op.if,
    VOID,
    ...[...get("half"), ...set("x"), ...i32Const(0), ...set("has")],
    ...lemire(f),
    op.end,
    op.block,
    VOID,
    op.loop,
    VOID,
    ...[...get("end"), ...get("ptr"), op.i32Sub, ...i32Const(8), op.i32LtU, op.brIf, 1],
    ...step(f),
    ...[...get("v"), ...i64Const(MASK_32), op.i64And, ...set("x")],
    ...lemire(f),
    ...[...get("v"), ...i64Const(32n), op.i64ShrU, ...set("x")],
    ...lemire(f),
    ...[op.br, 0],
    op.end,
    op.end,
    ...oneAtATime,
  ];
}

/** bounded(K, threshold, count, scale): `count` integers in [0, K), times scale, at DATA_AT. */
export function boundedFunction() {
  const fn = withGenerator(
    new FunctionBuilder(
      "bounded",
      [
        ["K", "i32"],
        ["threshold", "i32"],
        ["count", "i32"],
        ["scale", "i32"],
      ],
      null,
    ),
  ).locals("i32", "ptr", "end");
  const { get, set } = fn;
  const body = [
    ...loadGenerator(fn),
    ...[...get("K"), op.i64ExtendI32U, ...set("kx")],
    ...[...i32Const(DATA_AT), ...set("ptr")],
    ...[...i32Const(DATA_AT), ...get("count"), ...i32Const(2), op.i32Shl, op.i32Add, ...set("end")],
    ...fillBounded(fn),
    ...storeGenerator(fn),
  ];
  return { fn, body };
}

interface Kernel {
  readonly memory: KernelMemory;
  readonly bounded: (K: number, threshold: number, count: number, scale: number) => void;
}
let kernel: Kernel | null | undefined;

/** The kernel, instantiated once per thread; null where WebAssembly is unavailable. */
function pcg64Kernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  const exports = instantiateKernel([boundedFunction()], 2);
  kernel = exports
    ? { memory: exports.memory as KernelMemory, bounded: exports.bounded as Kernel["bounded"] }
    : null;
  return kernel;
}

/** Writes the generator into a kernel's memory (at 0, as loadGenerator reads it). */
export function putGenerator(buffer: ArrayBuffer, st: Pcg64State): void {
  const words = new Uint32Array(buffer, 0, 10);
  words.set(st.state, 0);
  words.set(st.increment, 4);
  words[8] = st.hasUint32 ? 1 : 0;
  words[9] = st.uinteger;
}

/** Reads the generator back after a kernel call. */
export function takeGenerator(buffer: ArrayBuffer, st: Pcg64State): void {
  const words = new Uint32Array(buffer, 0, 10);
  st.state.set(words.subarray(0, 4));
  st.hasUint32 = words[8] === 1;
  st.uinteger = st.hasUint32 ? (words[9] as number) : 0;
}

/** Integers per `bounded` call (the kernel's memory stays small whatever the count). */
export const BOUNDED_BLOCK = 1 << 16;

/**
 * `fillBoundedIntegers` for 2 ≤ K < 2^32 through the kernel (threshold = 2^32 mod K); false,
 * with nothing consumed, where WebAssembly is unavailable, so the caller uses its JS loop.
 */
export function fillBoundedIntegersWasm(
  st: Pcg64State,
  K: number,
  threshold: number,
  out: Uint32Array,
): boolean {
  const k = pcg64Kernel();
  if (!k) return false;
  const buffer = reserve(k.memory, DATA_AT + 4 * Math.min(out.length, BOUNDED_BLOCK));
  putGenerator(buffer, st);
  const results = new Uint32Array(buffer, DATA_AT, Math.min(out.length, BOUNDED_BLOCK));
  for (let at = 0; at < out.length; at += BOUNDED_BLOCK) {
    const count = Math.min(BOUNDED_BLOCK, out.length - at);
    k.bounded(K | 0, threshold | 0, count, 1);
    out.set(count === results.length ? results : results.subarray(0, count), at);
  }
  takeGenerator(buffer, st);
  return true;
}
