import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { requireTwoDocuments } from "./requireTwoDocuments.js";

/**
 * Imbens–Kolesár (Bell–McCaffrey) degrees of freedom of the CR2 micro interval.
 *
 * ν = tr(M)² / ‖M‖²_F with M = diag(a_d² n_d) − (a∘n)(a∘n)ᵀ/N and a_d = 1/√(1 − h_d)
 * (Imbens & Kolesár 2016, independence working model). M is never built: tr M = N exactly, and
 * with g_d = h_d² / (1 − h_d),
 *   ‖M‖²_F / N² = Σ h_d² + Σ_{i≠j} g_i g_j,
 * a sum of non-negative terms (the diagonal pieces h²(1−2h)/(1−h)² + g² collapse to h²), so no
 * cancellation even when one document holds almost every result (h_d → 1). Cost O(K).
 * Equal sizes give ν = K − 1.
 *
 * @throws RagciError "too-few-documents" when K < 2
 *
 * @example cr2DegreesOfFreedom(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => 2.6661
 */
export function cr2DegreesOfFreedom(stats: DocumentStats): number {
  const k = requireTwoDocuments(stats);
  const total = compensatedSum(stats.n);
  // Three compensated sums, no arrays: Σ h², Σ_j 2 g_j Σ_{i<j} g_i, and the prefix Σ g.
  const h2 = new NeumaierSum();
  const cross = new NeumaierSum();
  const prefix = new NeumaierSum();
  for (let d = 0; d < k; d++) {
    const nd = stats.n[d] as number;
    const h = nd / total;
    // g = h²/(1 − h) = n² / (N (N − n)), with N − n exact for counts.
    const g = (nd * nd) / (total * (total - nd));
    h2.add(h * h);
    cross.add(2 * g * prefix.value());
    prefix.add(g);
  }
  return 1 / (h2.value() + cross.value());
}
