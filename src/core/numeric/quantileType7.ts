import { tailOrderStatistics } from "./tailOrderStatistics.js";

/**
 * Quantile by linear interpolation between order statistics (Hyndman & Fan type 7, numpy's
 * default): position h = (n − 1)·p, result x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋).
 * `sorted` must be in ascending order and non-empty.
 */
export function quantileType7(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return interpolateType7(sorted[lo] as number, sorted[hi] as number, h - lo);
}

/**
 * The type-7 quantiles at ps of an unsorted array, from the four order statistics they read
 * (tailOrderStatistics: one pass for bootstrap tails, no copy, no sort). `values` is unchanged.
 */
export function quantilesType7(values: Float64Array, ps: readonly number[]): number[] {
  const n = values.length;
  return quantilesAtRanks(n, ps, tailOrderStatistics(values, type7Ranks(n, ps)));
}

/** The type-7 quantiles at ps of n values, from their order statistics at type7Ranks(n, ps). */
export function quantilesAtRanks(
  n: number,
  ps: readonly number[],
  at: readonly number[],
): number[] {
  return ps.map((p, i) =>
    interpolateType7(
      at[2 * i] as number,
      at[2 * i + 1] as number,
      (n - 1) * p - Math.floor((n - 1) * p),
    ),
  );
}

/** numpy's _lerp from x_⌊h⌋ = a to x_⌊h⌋+1 = b at g = h − ⌊h⌋: a + g·(b − a), switched to
 * b − (1 − g)·(b − a) for g ≥ 0.5 (exact at the ends). */
function interpolateType7(a: number, b: number, g: number): number {
  const diff = b - a;
  return g >= 0.5 ? b - diff * (1 - g) : a + diff * g;
}

/** Ascending copy of the values as a Float64Array (typed-array sort is numeric). */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** The ranks quantileType7 reads for p in an array of n: ⌊(n − 1)p⌋ and the next. */
export function type7Ranks(n: number, ps: readonly number[]): number[] {
  return ps.flatMap((p) => {
    const lo = Math.floor((n - 1) * p);
    return [lo, Math.min(lo + 1, n - 1)];
  });
}
