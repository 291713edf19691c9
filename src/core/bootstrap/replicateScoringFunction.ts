import { DATA_AT } from "../numeric/pcg64Kernel.js";
import { FunctionBuilder, f64Const, i32Const, memory, op, VOID } from "../numeric/wasmEncoder.js";

/**
 * The document bootstrap's replicate loop as a WebAssembly function, in the module of
 * documentBootstrapKernel.ts: a block of index rows drawn straight into the module's memory is
 * scored there, with no copy of the indices and none of JS's bounds checks in the gathers.
 * Every replicate is computed with the same operations in the same order as the JS loop of
 * documentBootstrap.ts (its oracle in the tests), so the two agree bit for bit.
 *
 * Per replicate (row of K drawn indices d_1 … d_K):
 *   r̄_b = Σ r_d / K, R_b = Σ s_d / Σ n_d; degenerate when s_d·n_{d_1} = s_{d_1}·n_d for all d;
 *   otherwise t_macro = (r̄_b − r̄)/(√(Σ(r_d − r̄_b)²/(K − 1))/√K) and
 *   t_micro = (R_b − R)/(√(K/(K − 1)·Σ(s_d − R_b n_d)²)/Σ n_d).
 * Two replicates are scored side by side, so their additions, which each wait on the previous
 * one of the same sum, interleave instead of queueing.
 *
 * Memory: generator at 0, the drawn documents' byte offsets 24·d from DATA_AT (one block of
 * rows; the draw kernel scales them), then the documents as (n, s, r) triples of f64, then the
 * B replicates' columns macro, micro, macroT, microT (f64 each) and their degenerate flags (one
 * byte each), then scratch for the tails.
 */

/**
 * score(K, rows, docs, out, total, first, fullMacro, fullMicro) → degenerate count: scores
 * `rows` replicates from the index rows at DATA_AT into replicates first … first + rows − 1 of
 * the `total`-long output columns at `out`, two at a time (A and B) while two remain, then one.
 */
export function replicateScoringFunction() {
  const perReplicate = ["at", "p", "end", "eq", "r"] as const;
  const perReplicateF = ["n0", "s0", "sumRate", "sumS", "sumN", "mean", "ratio", "sq", "res"];
  const fn = new FunctionBuilder(
    "score",
    [
      ["K", "i32"],
      ["rows", "i32"],
      ["docs", "i32"],
      ["out", "i32"],
      ["total", "i32"],
      ["first", "i32"],
      ["fullMacro", "f64"],
      ["fullMicro", "f64"],
    ],
    "i32",
  )
    .locals("i32", "q", "count", "rowBytes", ...perReplicate.flatMap((v) => [`${v}A`, `${v}B`]))
    .locals("f64", "kf", "km1", "sqrtK", "cr1Factor", "nd", "sd", "g", "u")
    .locals("f64", ...perReplicateF.flatMap((v) => [`${v}A`, `${v}B`]));
  const { get, set, tee } = fn;
  /** The address of output column `field` (0 macro … 3 microT) at replicate first + r_x. */
  const column = (field: number, x: string) => [
    ...get("out"),
    ...get("total"),
    ...i32Const(8 * field),
    op.i32Mul,
    op.i32Add,
    ...get(`r${x}`),
    ...get("first"),
    op.i32Add,
    ...i32Const(3),
    op.i32Shl,
    op.i32Add,
  ];
  /** q ← the address of the (n, s, r) triple whose byte offset (24·d) is at local `pointer`. */
  const docAt = (pointer: string) => [
    ...get(pointer),
    ...memory(op.i32Load, 2),
    ...get("docs"),
    op.i32Add,
    ...set("q"),
  ];
  const field = (offset: number) => [...get("q"), ...memory(op.f64Load, 3, offset)];
  const addTo = (sum: string, value: number[]) => [...get(sum), ...value, op.f64Add, ...set(sum)];
  const advance = (x: string) => [...get(`p${x}`), ...i32Const(4), op.i32Add, ...set(`p${x}`)];
  /** Sums start, the first document's n and s kept for the exact degeneracy test. */
  const start = (x: string) => [
    ...[...get(`at${x}`), ...get("rowBytes"), op.i32Add, ...set(`end${x}`)],
    ...docAt(`at${x}`),
    ...[...field(0), ...set(`n0${x}`), ...field(8), ...set(`s0${x}`)],
    ...[...f64Const(0), ...tee(`sumRate${x}`), ...tee(`sumS${x}`), ...set(`sumN${x}`)],
    ...[...f64Const(0), ...tee(`sq${x}`), ...set(`res${x}`)],
    ...[...i32Const(1), ...set(`eq${x}`), ...get(`at${x}`), ...set(`p${x}`)],
  ];
  /** One drawn document: Σr, Σs, Σn and the test s_d·n_0 = s_0·n_d. */
  const firstPass = (x: string) => [
    ...docAt(`p${x}`),
    ...[...field(0), ...set("nd"), ...field(8), ...set("sd")],
    ...addTo(`sumRate${x}`, field(16)),
    ...addTo(`sumS${x}`, get("sd")),
    ...addTo(`sumN${x}`, get("nd")),
    ...[...get(`eq${x}`), ...get("sd"), ...get(`n0${x}`), op.f64Mul, ...get(`s0${x}`)],
    ...[...get("nd"), op.f64Mul, op.f64Eq, op.i32And, ...set(`eq${x}`)],
    ...advance(x),
  ];
  const means = (x: string) => [
    ...[...get(`sumRate${x}`), ...get("kf"), op.f64Div, ...set(`mean${x}`)],
    ...[...get(`sumS${x}`), ...get(`sumN${x}`), op.f64Div, ...set(`ratio${x}`)],
    ...[...get(`at${x}`), ...set(`p${x}`)],
  ];
  /** One drawn document: Σ(r_d − r̄_b)² and Σ(s_d − R_b n_d)². */
  const secondPass = (x: string) => [
    ...docAt(`p${x}`),
    ...[...field(16), ...get(`mean${x}`), op.f64Sub, ...set("g")],
    ...[...field(8), ...get(`ratio${x}`), ...field(0), op.f64Mul, op.f64Sub, ...set("u")],
    ...addTo(`sq${x}`, [...get("g"), ...get("g"), op.f64Mul]),
    ...addTo(`res${x}`, [...get("u"), ...get("u"), op.f64Mul]),
    ...advance(x),
  ];
  /** Stores the replicate's estimates, its flag and (unless degenerate) its t statistics. */
  const finish = (x: string) => [
    ...[...column(0, x), ...get(`mean${x}`), ...memory(op.f64Store, 3)],
    ...[...column(1, x), ...get(`ratio${x}`), ...memory(op.f64Store, 3)],
    ...[...get("out"), ...get("total"), ...i32Const(32), op.i32Mul, op.i32Add, ...get(`r${x}`)],
    ...[op.i32Add, ...get("first"), op.i32Add, ...get(`eq${x}`), ...memory(op.i32Store8, 0)],
    ...get(`eq${x}`),
    op.if,
    VOID,
    ...[...column(2, x), ...f64Const(0), ...memory(op.f64Store, 3)],
    ...[...column(3, x), ...f64Const(0), ...memory(op.f64Store, 3)],
    ...[...get("count"), ...i32Const(1), op.i32Add, ...set("count")],
    op.else,
    // (r̄_b − r̄) / (√(sq/(K − 1)) / √K) and (R_b − R) / (√(K/(K − 1)·res) / Σn)
    ...[...column(2, x), ...get(`mean${x}`), ...get("fullMacro"), op.f64Sub, ...get(`sq${x}`)],
    ...[...get("km1"), op.f64Div, op.f64Sqrt, ...get("sqrtK"), op.f64Div, op.f64Div],
    ...memory(op.f64Store, 3),
    ...[...column(3, x), ...get(`ratio${x}`), ...get("fullMicro"), op.f64Sub],
    ...[...get("cr1Factor"), ...get(`res${x}`), op.f64Mul, op.f64Sqrt, ...get(`sumN${x}`)],
    ...[op.f64Div, op.f64Div, ...memory(op.f64Store, 3)],
    op.end,
  ];
  /** A loop over the row's K documents (the row has at least one), running `step`. */
  const overRow = (step: number[]) => [
    op.loop,
    VOID,
    ...step,
    ...[...get("pA"), ...get("endA"), op.i32LtU, op.brIf, 0],
    op.end,
  ];
  const body = [
    ...[...get("K"), op.f64ConvertI32S, ...tee("kf"), op.f64Sqrt, ...set("sqrtK")],
    ...[...get("K"), ...i32Const(1), op.i32Sub, op.f64ConvertI32S, ...set("km1")],
    ...[...get("kf"), ...get("km1"), op.f64Div, ...set("cr1Factor")],
    ...[...get("K"), ...i32Const(2), op.i32Shl, ...set("rowBytes")],
    ...[...i32Const(DATA_AT), ...set("atA")],
    // Two replicates side by side while rA + 1 < rows.
    op.block,
    VOID,
    op.loop,
    VOID,
    ...[...get("rA"), ...i32Const(1), op.i32Add, ...tee("rB"), ...get("rows"), op.i32GeU],
    ...[op.brIf, 1],
    ...[...get("atA"), ...get("rowBytes"), op.i32Add, ...set("atB")],
    ...start("A"),
    ...start("B"),
    ...overRow([...firstPass("A"), ...firstPass("B")]),
    ...means("A"),
    ...means("B"),
    ...overRow([...secondPass("A"), ...secondPass("B")]),
    ...finish("A"),
    ...finish("B"),
    ...[...get("endB"), ...set("atA"), ...get("rA"), ...i32Const(2), op.i32Add, ...set("rA")],
    ...[op.br, 0],
    op.end,
    op.end,
    // The last replicate of an odd count.
    ...[...get("rA"), ...get("rows"), op.i32LtU],
    op.if,
    VOID,
    ...start("A"),
    ...overRow(firstPass("A")),
    ...means("A"),
    ...overRow(secondPass("A")),
    ...finish("A"),
    op.end,
    ...get("count"),
  ];
  return { fn, body };
}
