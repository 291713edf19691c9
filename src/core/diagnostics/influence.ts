import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats, Estimand } from "../types.js";

export interface DocumentInfluence {
  readonly document: string;
  /** Estimate without the document minus the estimate with all documents. */
  readonly change: number;
}

/**
 * Leave-one-document-out influence, largest |change| first (ties keep document order).
 * Micro without d: (S − s_d)/(N − n_d); macro without d: (K·r̄ − r_d)/(K − 1).
 * O(K·top): the `top` largest are kept while scanning, nothing is sorted.
 *
 * @example influence(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), "micro", 1)
 *   // => [{ document: "b", change: -0.13636 }]
 */
export function influence(
  stats: DocumentStats,
  estimand: Estimand,
  top = 3,
): readonly DocumentInfluence[] {
  const k = stats.n.length;
  if (k < 2) return [];
  const { n, s } = stats;
  const totalS = compensatedSum(s);
  const totalN = compensatedSum(n);
  const rates = new NeumaierSum();
  for (let d = 0; d < k; d++) rates.add((s[d] as number) / (n[d] as number));
  const sumRates = rates.value();
  const full = estimand === "micro" ? totalS / totalN : sumRates / k;
  const best: { d: number; change: number }[] = [];
  for (let d = 0; d < k; d++) {
    const without =
      estimand === "micro"
        ? (totalS - (s[d] as number)) / (totalN - (n[d] as number))
        : (sumRates - (s[d] as number) / (n[d] as number)) / (k - 1);
    const change = without - full;
    const size = Math.abs(change);
    // Strictly larger only, so earlier documents win ties.
    if (best.length === top && size <= Math.abs((best[top - 1] as { change: number }).change))
      continue;
    let at = best.length;
    while (at > 0 && size > Math.abs((best[at - 1] as { change: number }).change)) at--;
    best.splice(at, 0, { d, change });
    if (best.length > top) best.pop();
  }
  return best.map(({ d, change }) => ({ document: stats.ids[d] as string, change }));
}
