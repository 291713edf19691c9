import { compensatedSum } from "../numeric/compensatedSum.js";
import { quantileType7, sortedCopy } from "../numeric/quantileType7.js";
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

export function fiveNumbers(values: ArrayLike<number>): FiveNumbers {
  const sorted = sortedCopy(values);
  return [0, 0.25, 0.5, 0.75, 1].map((p) => quantileType7(sorted, p)) as unknown as FiveNumbers;
}

/** The distribution of n_d and how concentrated the results are in the largest documents. */
export function sizeDistribution(stats: DocumentStats): SizeDistribution {
  const k = stats.n.length;
  const total = compensatedSum(stats.n);
  const sorted = sortedCopy(stats.n);
  let largest = 0;
  for (let d = 1; d < k; d++)
    if ((stats.n[d] as number) > (stats.n[largest] as number)) largest = d;
  const decile = Math.max(1, Math.ceil(k / 10));
  const top = compensatedSum(sorted.subarray(k - decile));
  return {
    quantiles: fiveNumbers(stats.n),
    mean: total / k,
    shareLargestDocument: (stats.n[largest] as number) / total,
    largestDocument: stats.ids[largest] as string,
    shareLargestDecile: top / total,
    largestDecileDocuments: decile,
    equalSizes: sorted[0] === sorted[k - 1],
  };
}
