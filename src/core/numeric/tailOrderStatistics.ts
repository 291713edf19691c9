import { selectRanks } from "./orderStatistics.js";

/** Ranks within this many of either end are read from a kept tail; others fall back to selection. */
const TAIL = 64;

/**
 * Slots of the largest pair of tails tailSizes allows, as the tails kernel lays them out:
 * [−∞, smallest × low, +∞, largest × high] with low and high at most TAIL.
 */
export const MAX_TAIL_SLOTS = 2 * (TAIL + 1);

/**
 * The values a full ascending sort of `values` would put at each of `ranks`, leaving `values`
 * untouched. Bootstrap quantiles read four order statistics near the two ends (ranks ≈ Bα/2
 * and B(1 − α/2)), so one pass keeps the `low` smallest values in ascending order and the
 * `high` largest in descending order: a value is compared with the two kept tails' inner ends
 * (held in locals), and only about m·ln(B/m) of the B values enter a tail, each by insertion
 * (a short, predictable shift loop; a heap's sift mispredicts a branch at every level). Ranks
 * farther than TAIL from both ends, or NaN among the values, are read from a copy (selectedCopy).
 */
export function tailOrderStatistics(values: Float64Array, ranks: readonly number[]): number[] {
  const n = values.length;
  const sizes = tailSizes(n, ranks);
  if (sizes === null) return selectedCopy(values, ranks);
  const { low, high } = sizes;
  const smallest = new Float64Array(low);
  const largest = new Float64Array(high);
  if (!keepTailsInJs(values, smallest, largest)) return selectedCopy(values, ranks);
  return atRanks(n, ranks, smallest, largest);
}

/**
 * How many of the smallest (`low`) and largest (`high`) of n values hold these ranks; null when
 * a rank is farther than TAIL from both ends (selection is then cheaper than kept tails).
 */
export function tailSizes(
  n: number,
  ranks: readonly number[],
): { readonly low: number; readonly high: number } | null {
  let low = 0; // smallest values kept: ranks 0 … low − 1
  let high = 0; // largest values kept: ranks n − high … n − 1
  for (const r of ranks) {
    if (!Number.isInteger(r) || r < 0 || r >= n)
      throw new RangeError(`rank ${r} outside 0…${n - 1}`);
    if (r < TAIL) low = Math.max(low, r + 1);
    else if (n - 1 - r < TAIL) high = Math.max(high, n - r);
    else return null;
  }
  return { low, high };
}

/** The order statistics at `ranks` from the kept tails (smallest ascending, largest descending). */
export function atRanks(
  n: number,
  ranks: readonly number[],
  smallest: Float64Array,
  largest: Float64Array,
): number[] {
  // smallest[r] is order statistic r; largest[j] is order statistic n − 1 − j
  return ranks.map((r) => (r < TAIL ? (smallest[r] as number) : (largest[n - 1 - r] as number)));
}

/**
 * Fills `smallest` (ascending) with the smallest values and `largest` (descending) with the
 * largest; false if a value is NaN. Assumes both lengths ≤ values.length.
 */
export function keepTailsInJs(
  values: Float64Array,
  smallest: Float64Array,
  largest: Float64Array,
): boolean {
  const n = values.length;
  const low = smallest.length;
  const high = largest.length;
  let nan = false;
  for (let i = 0; i < low; i++) insertAscending(smallest, i, values[i] as number);
  for (let i = 0; i < high; i++) insertDescending(largest, i, values[i] as number);
  // The inner ends: a value enters a tail only when it is beyond them.
  let lowEdge = low > 0 ? (smallest[low - 1] as number) : Number.NEGATIVE_INFINITY;
  let highEdge = high > 0 ? (largest[high - 1] as number) : Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const x = values[i] as number;
    if (x < lowEdge && i >= low) {
      insertAscending(smallest, low - 1, x);
      lowEdge = smallest[low - 1] as number;
    }
    if (x > highEdge && i >= high) {
      insertDescending(largest, high - 1, x);
      highEdge = largest[high - 1] as number;
    }
    if (Number.isNaN(x)) nan = true;
  }
  return !nan;
}

/** Puts x into sorted[0 … at] (ascending; sorted[at] is overwritten), shifting larger values up. */
function insertAscending(sorted: Float64Array, at: number, x: number): void {
  let j = at;
  while (j > 0 && (sorted[j - 1] as number) > x) {
    sorted[j] = sorted[j - 1] as number;
    j--;
  }
  sorted[j] = x;
}

/** Puts x into sorted[0 … at] (descending; sorted[at] is overwritten), shifting smaller values up. */
function insertDescending(sorted: Float64Array, at: number, x: number): void {
  let j = at;
  while (j > 0 && (sorted[j - 1] as number) < x) {
    sorted[j] = sorted[j - 1] as number;
    j--;
  }
  sorted[j] = x;
}

/**
 * The order statistics at `ranks` of a copy put in place by `selectRanks`, or, with NaN among
 * the values, of a sorted copy: a sort puts NaN last, as the callers expect, where selection,
 * whose comparisons are false for NaN, would not. (A sort of every copy was tried: 0.6 ms for
 * 10⁴ values in a fresh process against selection's 1.2 ms, but 1.6 ms slower over the document
 * bootstrap's four columns once V8 has optimised selection; neither showed in a whole run.)
 */
function selectedCopy(values: Float64Array, ranks: readonly number[]): number[] {
  const copy = Float64Array.from(values);
  if (copy.some(Number.isNaN)) copy.sort();
  else selectRanks(copy, ranks);
  return ranks.map((r) => copy[r] as number);
}
