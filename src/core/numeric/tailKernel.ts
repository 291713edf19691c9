import { FunctionBuilder, f64Const, i32Const, memory, op, VOID } from "./wasmEncoder.js";
import { instantiateKernel, type KernelMemory, reserve } from "./wasmInstance.js";

/**
 * The kept tails of tailOrderStatistics as a WebAssembly kernel: one pass over the values keeps
 * the `low` smallest in ascending order and the `high` largest in descending order, each value
 * compared with the two tails' inner ends and inserted by a shift loop only when beyond one.
 * The same loop in JS spends most of its time in typed-array bounds checks.
 *
 * Memory: the values from VALUES_AT; the tails after them, each behind a sentinel slot (−∞
 * before the ascending one, +∞ before the descending one) so the shift loops need no index
 * test.
 */

const VALUES_AT = 16;

/**
 * Statements inserting local x into the tail at `base` whose slot `free` (a local) may be
 * overwritten: values beyond x shift up one slot, from slot free − 1 down.
 */
function insert(f: FunctionBuilder, base: string, free: string, beyond: number): number[] {
  const { get, set, tee } = f;
  return [
    ...[...get(base), ...get(free), ...i32Const(3), op.i32Shl, op.i32Add, ...i32Const(8)],
    ...[op.i32Sub, ...set("p")],
    op.block,
    VOID,
    op.loop,
    VOID,
    // while tail[j − 1] is beyond x (the sentinel never is): tail[j] ← tail[j − 1]
    ...[...get("p"), ...memory(op.f64Load, 3, 0), ...tee("v")],
    ...[...get("x"), beyond, op.i32Eqz, op.brIf, 1],
    ...[...get("p"), ...i32Const(8), op.i32Add, ...get("v"), ...memory(op.f64Store, 3)],
    ...[...get("p"), ...i32Const(8), op.i32Sub, ...set("p"), op.br, 0],
    op.end,
    op.end,
    ...[...get("p"), ...i32Const(8), op.i32Add, ...get("x"), ...memory(op.f64Store, 3)],
  ];
}

/**
 * tails(n, low, high) → 1 if a value is NaN, else 0 (low, high ≥ 1). The values are at VALUES_AT; the ascending
 * tail is written after them (its sentinel first), then the descending one.
 */
function tailsFunction() {
  const fn = new FunctionBuilder(
    "tails",
    [
      ["n", "i32"],
      ["low", "i32"],
      ["high", "i32"],
    ],
    "i32",
  )
    .locals("i32", "i", "p", "at", "end", "small", "large", "nan", "lastLow", "lastHigh")
    .locals("f64", "x", "v", "lowEdge", "highEdge");
  const { get, set, tee } = fn;
  const value = [...get("at"), ...memory(op.f64Load, 3, 0), ...set("x")];
  /** Inserts the first `count` values into a tail, slot i for value i. */
  const fill = (count: string, base: string, beyond: number) => [
    ...[...i32Const(0), ...set("i"), ...i32Const(VALUES_AT), ...set("at")],
    op.block,
    VOID,
    op.loop,
    VOID,
    ...[...get("i"), ...get(count), op.i32GeU, op.brIf, 1],
    ...value,
    ...insert(fn, base, "i", beyond),
    ...[...get("at"), ...i32Const(8), op.i32Add, ...set("at")],
    ...[...get("i"), ...i32Const(1), op.i32Add, ...set("i"), op.br, 0],
    op.end,
    op.end,
  ];
  const edge = (base: string, count: string) => [
    ...get(base),
    ...get(count),
    ...i32Const(3),
    op.i32Shl,
    op.i32Add,
    ...memory(op.f64Load, 3, 0),
  ];
  const body = [
    // small: sentinel −∞ at VALUES_AT + 8n, slots after it; large likewise after small's slots
    ...[...i32Const(VALUES_AT), ...get("n"), ...i32Const(3), op.i32Shl, op.i32Add, ...tee("p")],
    ...[...f64Const(Number.NEGATIVE_INFINITY), ...memory(op.f64Store, 3)],
    ...[...get("p"), ...i32Const(8), op.i32Add, ...tee("small")],
    ...[...get("low"), ...i32Const(3), op.i32Shl, op.i32Add, ...tee("p")],
    ...[...f64Const(Number.POSITIVE_INFINITY), ...memory(op.f64Store, 3)],
    ...[...get("p"), ...i32Const(8), op.i32Add, ...set("large")],
    ...fill("low", "small", op.f64Gt),
    ...fill("high", "large", op.f64Lt),
    // inner ends: small[low − 1], large[high − 1] (±∞ sentinels for an empty tail)
    ...[...get("low"), ...i32Const(1), op.i32Sub, ...set("lastLow")],
    ...[...get("high"), ...i32Const(1), op.i32Sub, ...set("lastHigh")],
    ...[...edge("small", "lastLow"), ...set("lowEdge")],
    ...[...edge("large", "lastHigh"), ...set("highEdge")],
    ...[...i32Const(VALUES_AT), ...tee("at"), ...get("n"), ...i32Const(3), op.i32Shl],
    ...[op.i32Add, ...set("end")],
    ...[...i32Const(0), ...set("i")],
    op.block,
    VOID,
    op.loop,
    VOID,
    ...[...get("at"), ...get("end"), op.i32GeU, op.brIf, 1],
    ...value,
    // a value enters a tail only once the tail is full (i ≥ its size) and it is beyond the end
    ...[...get("x"), ...get("lowEdge"), op.f64Lt, ...get("i"), ...get("low"), op.i32GeU, op.i32And],
    op.if,
    VOID,
    ...insert(fn, "small", "lastLow", op.f64Gt),
    ...[...edge("small", "lastLow"), ...set("lowEdge")],
    op.end,
    ...[...get("x"), ...get("highEdge"), op.f64Gt, ...get("i"), ...get("high"), op.i32GeU],
    op.i32And,
    op.if,
    VOID,
    ...insert(fn, "large", "lastHigh", op.f64Lt),
    ...[...edge("large", "lastHigh"), ...set("highEdge")],
    op.end,
    ...[...get("nan"), ...get("x"), ...get("x"), op.f64Ne, op.i32Or, ...set("nan")],
    ...[...get("at"), ...i32Const(8), op.i32Add, ...set("at")],
    ...[...get("i"), ...i32Const(1), op.i32Add, ...set("i"), op.br, 0],
    op.end,
    op.end,
    ...get("nan"),
  ];
  return { fn, body };
}

interface TailKernel {
  readonly memory: KernelMemory;
  readonly tails: (n: number, low: number, high: number) => number;
}
let kernel: TailKernel | null | undefined;

function tailKernel(): TailKernel | null {
  if (kernel !== undefined) return kernel;
  const exports = instantiateKernel([tailsFunction()], 1);
  kernel = exports
    ? { memory: exports.memory as KernelMemory, tails: exports.tails as TailKernel["tails"] }
    : null;
  return kernel;
}

/**
 * The `low` smallest values ascending into `smallest` and the `high` largest descending into
 * `largest` (lengths low and high, both ≤ values.length); false if a value is NaN, null where
 * WebAssembly is unavailable.
 */
export function keepTailsWasm(
  values: Float64Array,
  smallest: Float64Array,
  largest: Float64Array,
): boolean | null {
  const k = tailKernel();
  if (!k) return null;
  const n = values.length;
  const low = smallest.length;
  const high = largest.length;
  const buffer = reserve(k.memory, VALUES_AT + 8 * (n + low + high + 2));
  new Float64Array(buffer, VALUES_AT, n).set(values);
  if (k.tails(n, low, high) !== 0) return false;
  const smallAt = VALUES_AT + 8 * (n + 1);
  smallest.set(new Float64Array(buffer, smallAt, low));
  largest.set(new Float64Array(buffer, smallAt + 8 * (low + 1), high));
  return true;
}
