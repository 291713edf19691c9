import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats, Estimand } from "../types.js";

export interface DocumentInfluence {
  readonly document: string;
  /** Estimate without the document minus the estimate with all documents. */
  readonly change: number;
}

/**
 * Leave-one-document-out influence, largest |change| first (ties keep document order).
 * Micro without d: (S − s_d)/(N − n_d); macro without d: (K·r̄ − r_d)/(K − 1). O(K).
 */
export function influence(
  stats: DocumentStats,
  estimand: Estimand,
  top = 3,
): readonly DocumentInfluence[] {
  const k = stats.n.length;
  if (k < 2) return [];
  const totalS = compensatedSum(stats.s);
  const totalN = compensatedSum(stats.n);
  const rates = Float64Array.from(
    { length: k },
    (_, d) => (stats.s[d] as number) / (stats.n[d] as number),
  );
  const sumRates = compensatedSum(rates);
  const full = estimand === "micro" ? totalS / totalN : sumRates / k;
  const changes = Array.from({ length: k }, (_, d) => {
    const without =
      estimand === "micro"
        ? (totalS - (stats.s[d] as number)) / (totalN - (stats.n[d] as number))
        : (sumRates - (rates[d] as number)) / (k - 1);
    return { document: stats.ids[d] as string, change: without - full, order: d };
  });
  changes.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.order - b.order);
  return changes.slice(0, top).map(({ document, change }) => ({ document, change }));
}
