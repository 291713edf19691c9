import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { withinDocumentSumOfSquares } from "../variance/withinDocumentSumOfSquares.js";

export type IntraclassCorrelation =
  | {
      readonly available: true;
      readonly icc: number;
      /** Between-document mean square Σ n_d (r_d − R)² / (K − 1). */
      readonly msb: number;
      /** Within-document mean square Σ (ss_d − s_d²/n_d) / (N − K). */
      readonly msw: number;
      /** Average size adjusted for imbalance, n₀ = (N − Σ n_d²/N) / (K − 1). */
      readonly n0: number;
    }
  | { readonly available: false; readonly reason: string };

/**
 * One-way ANOVA estimator of the intraclass correlation for unequal cluster sizes:
 * ICC = (MSB − MSW) / (MSB + (n₀ − 1)·MSW) (Donner 1986; Searle, Casella & McCulloch 1992).
 * May be negative. A diagnostic, never a substitute for the document-level interval.
 *
 * @example icc(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { available: true, icc: 0.1125 }
 */
export function icc(stats: DocumentStats): IntraclassCorrelation {
  const k = stats.n.length;
  const total = compensatedSum(stats.n);
  if (k < 2) return { available: false, reason: "needs at least 2 documents" };
  if (total - k <= 0) {
    return {
      available: false,
      reason: "every document has one result: no within-document variation",
    };
  }
  const micro = compensatedSum(stats.s) / total;
  const between = new NeumaierSum();
  const within = new NeumaierSum();
  const squaredSizes = new NeumaierSum();
  for (let d = 0; d < k; d++) {
    const n = stats.n[d] as number;
    const gap = (stats.s[d] as number) / n - micro;
    between.add(n * gap * gap);
    within.add(withinDocumentSumOfSquares(stats, d));
    squaredSizes.add(n * n);
  }
  const msb = between.value() / (k - 1);
  const msw = within.value() / (total - k);
  const n0 = (total - squaredSizes.value() / total) / (k - 1);
  const denominator = msb + (n0 - 1) * msw;
  if (!(denominator > 0)) {
    return { available: false, reason: "no variation within or between documents" };
  }
  return { available: true, icc: (msb - msw) / denominator, msb, msw, n0 };
}
