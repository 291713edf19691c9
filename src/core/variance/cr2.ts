import { RagciError } from "../errors.js";
import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats, StandardError } from "../types.js";
import { cr2DegreesOfFreedom } from "./cr2DegreesOfFreedom.js";
import { requireTwoDocuments } from "./requireTwoDocuments.js";

/**
 * CR2 (bias-reduced linearisation) standard error of the micro estimate, with the
 * Imbens–Kolesár degrees of freedom, under the independence working model.
 *
 * se = √(Σ u_d² / (1 − h_d)) / N, h_d = n_d / N (Bell & McCaffrey 2002; clubSandwich "CR2" on
 * the intercept-only model at query level). 1/(1 − h_d) is computed as N / (N − n_d).
 *
 * @throws RagciError "too-few-documents" when K < 2
 *
 * @example cr2(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { se: 0.15407, df: 2.6661 }
 */
export function cr2(stats: DocumentStats): StandardError {
  const k = requireTwoDocuments(stats);
  const total = compensatedSum(stats.n);
  const ratio = compensatedSum(stats.s) / total;
  for (let d = 0; d < k; d++) {
    if (!(total - (stats.n[d] as number) > 0)) {
      throw new RagciError(
        "single-document-holds-all",
        `document "${stats.ids[d]}" holds every result (h_d = 1); CR2 needs results in at least two documents`,
        { document: stats.ids[d] as string },
      );
    }
  }
  // Σ u_d² / (1 − h_d) with u_d = s_d − R·n_d and 1/(1 − h_d) = N/(N − n_d).
  const sum = new NeumaierSum();
  for (let d = 0; d < k; d++) {
    const n = stats.n[d] as number;
    const u = (stats.s[d] as number) - ratio * n;
    sum.add((u * u * total) / (total - n));
  }
  return { se: Math.sqrt(sum.value()) / total, df: cr2DegreesOfFreedom(stats) };
}
