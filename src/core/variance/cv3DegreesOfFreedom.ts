import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { requireResultsOutsideEachDocument } from "./requireResultsOutsideEachDocument.js";
import { requireTwoDocuments } from "./requireTwoDocuments.js";

/**
 * Satterthwaite degrees of freedom of the CV3 variance (Bell & McCaffrey 2002), independence
 * working model (every result independent, equal variance):
 *
 *   ν₃ = (Σk)² / (Σk² + (Σk²)² − Σk⁴),  k_d = h_d / (1 − h_d) = n_d / (N − n_d).
 *
 * This is tr(M)² / ‖M‖²_F for M = C^½ (D − nnᵀ/N) C^½, C = diag(1/(1 − h_d)²), D = diag(n):
 * tr M = N·Σk and ‖M‖²_F / N² = Σ(k² − k⁴) + (Σk²)². The denominator is evaluated as
 * Σk² + 2 Σ_{i<j} k_i² k_j², non-negative terms only, because (Σk²)² − Σk⁴ cancels
 * catastrophically when one document holds almost every result (one k_d ≫ 1). Cost O(K).
 * Equals K − 1 for equal sizes and 1 for K = 2. Matches clubSandwich's coef_test(test =
 * "Satterthwaite") for CR3 on the query-level intercept model (or the document-level WLS with
 * target = 1/n). Example: n = [3, 9, 14, 26, 58] gives ν₃ = 1.6867560…
 *
 * @throws RagciError "too-few-documents" when K < 2, "single-document-holds-all" when N − n_d
 *   rounds to 0 (see requireResultsOutsideEachDocument)
 */
export function cv3DegreesOfFreedom(stats: DocumentStats): number {
  const count = requireTwoDocuments(stats);
  const total = compensatedSum(stats.n);
  requireResultsOutsideEachDocument(stats, total);
  const sumK = new NeumaierSum();
  const sumK2 = new NeumaierSum();
  const cross = new NeumaierSum();
  // prefix = Σ_{i<d} k_i², so cross accumulates 2 Σ_{i<j} k_i² k_j².
  const prefix = new NeumaierSum();
  for (let d = 0; d < count; d++) {
    const n = stats.n[d] as number;
    const k = n / (total - n);
    const k2 = k * k;
    sumK.add(k);
    sumK2.add(k2);
    cross.add(2 * k2 * prefix.value());
    prefix.add(k2);
  }
  const numerator = sumK.value();
  return (numerator * numerator) / (sumK2.value() + cross.value());
}
