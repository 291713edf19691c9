import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { requireResultsOutsideEachDocument } from "./requireResultsOutsideEachDocument.js";
import { requireTwoDocuments } from "./requireTwoDocuments.js";

/**
 * Leave-one-document-out (jackknife, CV3) variance of the micro estimate R = Σs / Σn:
 *
 *   V₃ = (K−1)/K · Σ_d (R₍d₎ − R)²,  R₍d₎ = (S − s_d) / (N − n_d) the ratio without document d,
 *
 * computed in O(K) through R − R₍d₎ = u_d / (N − n_d), u_d = s_d − R·n_d, which is the SPEC form
 * (K−1)/K · Σ u_d² / (1 − h_d)² / N² with h_d = n_d / N (MacKinnon, Nielsen & Webb 2023).
 * clubSandwich's vcovCR(type = "CR3") omits the factor: CR3 = K/(K−1) · V₃.
 * Exactly 0 when every document has the same rate (s_d·n_1 = s_1·n_d for all d), so rounding
 * in R cannot leave a 1e-33 remainder. Example: n = [3, 9, 14, 26, 58], s = [1, 5, 10, 11, 19]
 * gives V₃ = 0.0097866894…
 *
 * @throws RagciError "too-few-documents" when K < 2; "single-document-holds-all" when N − n_d
 *   rounds to 0 for some d, where R₍d₎ does not exist (see requireResultsOutsideEachDocument)
 */
export function cv3Variance(stats: DocumentStats): number {
  const k = requireTwoDocuments(stats);
  const total = compensatedSum(stats.n);
  const ratio = compensatedSum(stats.s) / total;
  requireResultsOutsideEachDocument(stats, total);
  // Cross-multiplied so that 1/3 and 2/6 compare equal without rounding.
  const n1 = stats.n[0] as number;
  const s1 = stats.s[0] as number;
  let allEqual = true;
  for (let d = 0; d < k; d++) {
    if ((stats.s[d] as number) * n1 !== s1 * (stats.n[d] as number)) allEqual = false;
  }
  if (allEqual) return 0;
  const sum = new NeumaierSum();
  for (let d = 0; d < k; d++) {
    const n = stats.n[d] as number;
    // R − R₍d₎ = u_d / (N − n_d); N − n_d is exact for counts.
    const shift = ((stats.s[d] as number) - ratio * n) / (total - n);
    sum.add(shift * shift);
  }
  return ((k - 1) / k) * sum.value();
}
