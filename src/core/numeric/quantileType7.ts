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
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  const g = h - lo;
  // numpy's _lerp: a + g·(b − a), switched to b − (1 − g)·(b − a) for g ≥ 0.5 (exact at ends).
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
