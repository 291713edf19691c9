import { compensatedSum } from "../numeric/compensatedSum.js";
import { selectRanks } from "../numeric/orderStatistics.js";
import { quantileType7 } from "../numeric/quantileType7.js";
import type { DocumentStats } from "../types.js";

/** Minimum, quartiles and maximum (type 7), in that order. */
export type FiveNumbers = readonly [number, number, number, number, number];

export interface SizeDistribution {
  readonly quantiles: FiveNumbers;
  readonly mean: number;
  /** Share of all results held by the largest document. */
  readonly shareLargestDocument: number;
  readonly largestDocument: string;
  /** Share of all results held by the largest 10% of documents (at least one). */
  readonly shareLargestDecile: number;
  readonly largestDecileDocuments: number;
  /** Whether every document has the same number of results. */
  readonly equalSizes: boolean;
}

const FIVE = [0, 0.25, 0.5, 0.75, 1] as const;

/** The ranks type-7 quantiles at FIVE read: ⌊(K − 1)p⌋ and the one after. */
function fiveNumberRanks(k: number): number[] {
  return FIVE.flatMap((p) => {
    const lo = Math.floor((k - 1) * p);
    return [lo, Math.min(lo + 1, k - 1)];
  });
}

/** Minimum, quartiles and maximum of values whose ranks fiveNumberRanks are in place. */
function fiveNumbersOfSelected(selected: Float64Array): FiveNumbers {
  return FIVE.map((p) => quantileType7(selected, p)) as unknown as FiveNumbers;
}

export function fiveNumbers(values: ArrayLike<number>): FiveNumbers {
  const copy = Float64Array.from(values);
  selectRanks(copy, fiveNumberRanks(copy.length));
  return fiveNumbersOfSelected(copy);
}

/** The distribution of n_d and how concentrated the results are in the largest documents. */
export function sizeDistribution(stats: DocumentStats): SizeDistribution {
  const k = stats.n.length;
  const total = compensatedSum(stats.n);
  let largest = 0;
  for (let d = 1; d < k; d++)
    if ((stats.n[d] as number) > (stats.n[largest] as number)) largest = d;
  const decile = Math.max(1, Math.ceil(k / 10));
  // One selection serves the quartiles and the split at the largest decile.
  const selected = Float64Array.from(stats.n);
  selectRanks(selected, [...fiveNumberRanks(k), k - decile]);
  const top = compensatedSum(selected.subarray(k - decile));
  return {
    quantiles: fiveNumbersOfSelected(selected),
    mean: total / k,
    shareLargestDocument: (stats.n[largest] as number) / total,
    largestDocument: stats.ids[largest] as string,
    shareLargestDecile: top / total,
    largestDecileDocuments: decile,
    equalSizes: selected[0] === selected[k - 1],
  };
}
