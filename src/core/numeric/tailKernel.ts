import { FunctionBuilder, f64Const, i32Const, memory, op, VOID } from "./wasmEncoder.js";
import { instantiateKernel, type KernelMemory, reserve } from "./wasmInstance.js";

/**
 * The kept tails of tailOrderStatistics as a WebAssembly function: one pass over the values
 * keeps the `low` smallest in ascending order and the `high` largest in descending order, each
 * value compared with the two tails' inner ends and inserted by a shift loop only when beyond
 * one. The same loop in JS spends most of its time in typed-array bounds checks. Values whose
 * flag byte is set are passed over (the bootstrap's degenerate replicates).
 *
 * Each tail is written behind a sentinel slot (−∞ before the ascending one, +∞ before the
 * descending one) so the shift loops need no index test: `tails` writes at `out` the slots
 * [−∞, smallest × low, +∞, largest × high].
 */

/** Where this file's own instance keeps the values; its tails follow them. */
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
 * tails(values, n, low, high, out, flags) → 1 if a value is NaN, else 0 (low, high ≥ 1, and at
 * least max(low, high) values not passed over). flags = 0: no value is passed over.
 */
export function tailsFunction() {
  const fn = new FunctionBuilder(
    "tails",
    [
      ["values", "i32"],
      ["n", "i32"],
      ["low", "i32"],
      ["high", "i32"],
      ["out", "i32"],
      ["flags", "i32"],
    ],
    "i32",
  )
    .locals("i32", "i", "p", "at", "end", "small", "large", "nan", "lastLow", "lastHigh", "kept")
    .locals("f64", "x", "v", "lowEdge", "highEdge");
  const { get, set, tee } = fn;
  /** Continue with the next value when this one's flag is set. */
  const passOver = (loop: number) => [
    // (flags ≠ 0) ∧ flag byte i
    ...[...get("flags"), op.i32Eqz, op.i32Eqz],
    ...[...get("flags"), ...get("i"), op.i32Add, ...memory(op.i32Load8U, 0)],
    ...[op.i32And, op.brIf, loop],
  ];
  const next = [
    ...[...get("at"), ...i32Const(8), op.i32Add, ...set("at")],
    ...[...get("i"), ...i32Const(1), op.i32Add, ...set("i")],
  ];
  const value = [...get("at"), ...memory(op.f64Load, 3, 0), ...set("x")];
  /**
   * A loop over the values from the first, passing over the flagged ones: it stops when `stop`
   * holds, runs `body` on each kept value (in x), then counts it (kept).
   */
  const overKeptValues = (stop: number[], body: number[]) => [
    ...[...i32Const(0), ...tee("i"), ...set("kept"), ...get("values"), ...set("at")],
    op.block,
    VOID,
    op.loop,
    VOID,
    ...[...stop, op.brIf, 1],
    op.block,
    VOID,
    ...passOver(0),
    ...value,
    ...body,
    ...[...get("kept"), ...i32Const(1), op.i32Add, ...set("kept")],
    op.end,
    ...next,
    ...[op.br, 0],
    op.end,
    op.end,
  ];
  /** Inserts the first `count` kept values into a tail, the k-th kept value at slot k. */
  const fill = (count: string, base: string, beyond: number) =>
    overKeptValues([...get("kept"), ...get(count), op.i32GeU], insert(fn, base, "kept", beyond));
  const edge = (base: string, last: string) => [
    ...get(base),
    ...get(last),
    ...i32Const(3),
    op.i32Shl,
    op.i32Add,
    ...memory(op.f64Load, 3, 0),
  ];
  /**
   * x enters a tail once the tail is full (kept ≥ its size) and x is beyond its inner end
   * (`beyond`: f64.lt for the smallest, f64.gt for the largest); the end then moves.
   */
  const enter = (side: {
    tail: string;
    size: string;
    last: string;
    edge: string;
    beyond: number;
  }) => [
    ...[...get("x"), ...get(side.edge), side.beyond, ...get("kept"), ...get(side.size)],
    ...[op.i32GeU, op.i32And],
    op.if,
    VOID,
    // the values the new one passes shift the other way: f64.gt for the smallest, f64.lt
    ...insert(fn, side.tail, side.last, side.beyond === op.f64Lt ? op.f64Gt : op.f64Lt),
    ...[...edge(side.tail, side.last), ...set(side.edge)],
    op.end,
  ];
  const body = [
    // out: [−∞, small × low, +∞, large × high]
    ...[...get("out"), ...f64Const(Number.NEGATIVE_INFINITY), ...memory(op.f64Store, 3)],
    ...[...get("out"), ...i32Const(8), op.i32Add, ...tee("small")],
    ...[...get("low"), ...i32Const(3), op.i32Shl, op.i32Add, ...tee("p")],
    ...[...f64Const(Number.POSITIVE_INFINITY), ...memory(op.f64Store, 3)],
    ...[...get("p"), ...i32Const(8), op.i32Add, ...set("large")],
    ...fill("low", "small", op.f64Gt),
    ...fill("high", "large", op.f64Lt),
    // inner ends: small[low − 1], large[high − 1]
    ...[...get("low"), ...i32Const(1), op.i32Sub, ...set("lastLow")],
    ...[...get("high"), ...i32Const(1), op.i32Sub, ...set("lastHigh")],
    ...[...edge("small", "lastLow"), ...set("lowEdge")],
    ...[...edge("large", "lastHigh"), ...set("highEdge")],
    ...[...get("values"), ...get("n"), ...i32Const(3), op.i32Shl, op.i32Add, ...set("end")],
    ...overKeptValues(
      [...get("at"), ...get("end"), op.i32GeU],
      [
        ...enter({
          tail: "small",
          size: "low",
          last: "lastLow",
          edge: "lowEdge",
          beyond: op.f64Lt,
        }),
        ...enter({
          tail: "large",
          size: "high",
          last: "lastHigh",
          edge: "highEdge",
          beyond: op.f64Gt,
        }),
        ...[...get("nan"), ...get("x"), ...get("x"), op.f64Ne, op.i32Or, ...set("nan")],
      ],
    ),
    ...get("nan"),
  ];
  return { fn, body };
}

/** Reads back what `tails` wrote at `out` into `smallest` and `largest`. */
export function readTails(
  buffer: ArrayBuffer,
  out: number,
  smallest: Float64Array,
  largest: Float64Array,
): void {
  smallest.set(new Float64Array(buffer, out + 8, smallest.length));
  largest.set(new Float64Array(buffer, out + 8 * (smallest.length + 2), largest.length));
}

/** tails(values, n, low, high, out, flags) of tailsFunction. */
export type TailsCall = (
  values: number,
  n: number,
  low: number,
  high: number,
  out: number,
  flags: number,
) => number;

interface TailKernel {
  readonly memory: KernelMemory;
  readonly tails: TailsCall;
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
  const out = VALUES_AT + 8 * n;
  const buffer = reserve(k.memory, out + 8 * (low + high + 2));
  new Float64Array(buffer, VALUES_AT, n).set(values);
  if (k.tails(VALUES_AT, n, low, high, out, 0) !== 0) return false;
  readTails(buffer, out, smallest, largest);
  return true;
}
