import { selectRanks } from "./orderStatistics.js";

/** Ranks within this many of either end are read from a heap; others fall back to selection. */
const TAIL = 64;

/**
 * The values a full ascending sort of `values` would put at each of `ranks`, leaving `values`
 * untouched. Bootstrap quantiles read four order statistics near the two ends (ranks ≈ Bα/2
 * and B(1 − α/2)), so one pass keeps the m smallest in a max-heap and the m largest in a
 * min-heap: each value costs one or two comparisons with a heap's top and only O(m log(B/m))
 * of them enter a heap, against a copy and a quickselect over all B. Ranks farther than TAIL
 * from both ends, or NaN among the values, use `selectRanks` on a copy (same values).
 */
export function tailOrderStatistics(values: Float64Array, ranks: readonly number[]): number[] {
  const n = values.length;
  let low = 0; // smallest values kept: ranks 0 … low − 1
  let high = 0; // largest values kept: ranks n − high … n − 1
  for (const r of ranks) {
    if (!Number.isInteger(r) || r < 0 || r >= n)
      throw new RangeError(`rank ${r} outside 0…${n - 1}`);
    if (r < TAIL) low = Math.max(low, r + 1);
    else if (n - 1 - r < TAIL) high = Math.max(high, n - r);
    else return selectedCopy(values, ranks);
  }
  const lowHeap = new Float64Array(low); // max-heap: lowHeap[0] is the largest of the smallest
  const highHeap = new Float64Array(high); // negated values in a max-heap: the smallest largest
  for (let i = 0; i < n; i++) {
    const x = values[i] as number;
    if (Number.isNaN(x)) return selectedCopy(values, ranks);
    if (i < low) siftUp(lowHeap, i, x);
    else if (low > 0 && x < (lowHeap[0] as number)) siftDown(lowHeap, low, x);
    if (i < high) siftUp(highHeap, i, -x);
    else if (high > 0 && -x < (highHeap[0] as number)) siftDown(highHeap, high, -x);
  }
  lowHeap.sort(); // ascending: lowHeap[r] is order statistic r
  highHeap.sort(); // ascending negated: highHeap[j] is −(order statistic n − 1 − j)
  return ranks.map((r) => (r < TAIL ? (lowHeap[r] as number) : -(highHeap[n - 1 - r] as number)));
}

function selectedCopy(values: Float64Array, ranks: readonly number[]): number[] {
  const copy = Float64Array.from(values);
  selectRanks(copy, ranks);
  return ranks.map((r) => copy[r] as number);
}

/** Adds x as element `size` of a max-heap of size + 1 elements. */
function siftUp(heap: Float64Array, size: number, x: number): void {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    const p = heap[parent] as number;
    if (p >= x) break;
    heap[i] = p;
    i = parent;
  }
  heap[i] = x;
}

/** Replaces the top of a full max-heap of `size` elements by x (smaller than the top). */
function siftDown(heap: Float64Array, size: number, x: number): void {
  let i = 0;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    const right = child + 1;
    if (right < size && (heap[right] as number) > (heap[child] as number)) child = right;
    const c = heap[child] as number;
    if (c <= x) break;
    heap[i] = c;
    i = child;
  }
  heap[i] = x;
}
