/**
 * Puts the order statistics of the given ranks in place: afterwards values[r] is the value a
 * full ascending sort would put at r, everything before r is ≤ it and everything after is ≥.
 * Quickselect over all ranks at once, with three-way partitions (rates are full of exact 0s
 * and 1s, sizes of small integers) and a median-of-three pivot; a branch that recurses deeper
 * than 2·log₂(length) is sorted instead, so the cost is O(K) typically and O(K log K) at worst,
 * against O(K log K) always for a sort. Deterministic: no random pivots.
 */
export function selectRanks(values: Float64Array, ranks: readonly number[]): void {
  const wanted = [...new Set(ranks)].sort((a, b) => a - b);
  if (wanted.length === 0) return;
  const limit = 2 * Math.ceil(Math.log2(values.length + 1)) + 4;
  select(values, 0, values.length - 1, wanted, 0, wanted.length - 1, limit);
}

function select(
  a: Float64Array,
  lo: number,
  hi: number,
  ranks: readonly number[],
  first: number,
  last: number,
  depth: number,
): void {
  while (first <= last && lo < hi) {
    if (depth-- <= 0 || hi - lo < 16) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    const pivot = medianOfThree(a[lo] as number, a[(lo + hi) >>> 1] as number, a[hi] as number);
    // Three-way partition: [lo, lt) < pivot, [lt, gt] = pivot, (gt, hi] > pivot.
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i <= gt) {
      const x = a[i] as number;
      if (x < pivot) {
        a[i++] = a[lt] as number;
        a[lt++] = x;
      } else if (x > pivot) {
        a[i] = a[gt] as number;
        a[gt--] = x;
      } else {
        i++;
      }
    }
    // Ranks below lt go left, above gt go right; those inside the equal block are done.
    let leftLast = first - 1;
    while (leftLast + 1 <= last && (ranks[leftLast + 1] as number) < lt) leftLast++;
    let rightFirst = last + 1;
    while (rightFirst - 1 >= first && (ranks[rightFirst - 1] as number) > gt) rightFirst--;
    // Recurse into the smaller side, loop on the larger (bounded stack).
    if (lt - lo < hi - gt) {
      select(a, lo, lt - 1, ranks, first, leftLast, depth);
      lo = gt + 1;
      first = rightFirst;
    } else {
      select(a, gt + 1, hi, ranks, rightFirst, last, depth);
      hi = lt - 1;
      last = leftLast;
    }
  }
}

function medianOfThree(x: number, y: number, z: number): number {
  if (x < y) return y < z ? y : Math.max(x, z);
  return x < z ? x : Math.max(y, z);
}
