import { RagciError } from "../errors.js";
import { compensatedSumOf } from "../numeric/compensatedSum.js";
import type { DocumentStats, StandardError } from "../types.js";
import { cr2DegreesOfFreedom } from "./cr2DegreesOfFreedom.js";
import { microResiduals } from "./microResiduals.js";
import { requireTwoDocuments } from "./requireDocuments.js";

/**
 * CR2 (bias-reduced linearisation) standard error of the micro estimate, with the
 * Imbens–Kolesár degrees of freedom, under the independence working model.
 *
 * se = √(Σ u_d² / (1 − h_d)) / N, h_d = n_d / N (Bell & McCaffrey 2002; clubSandwich "CR2" on
 * the intercept-only model at query level). 1/(1 − h_d) is computed as N / (N − n_d).
 *
 * @throws RagciError "too-few-documents" when K < 2
 */
export function cr2(stats: DocumentStats): StandardError {
  const k = requireTwoDocuments(stats);
  const { u, total } = microResiduals(stats);
  for (let d = 0; d < k; d++) {
    if (!(total - (stats.n[d] as number) > 0)) {
      throw new RagciError(
        "single-document-holds-all",
        `document "${stats.ids[d]}" holds every result (h_d = 1); CR2 needs results in at least two documents`,
        { document: stats.ids[d] as string },
      );
    }
  }
  const sum = compensatedSumOf(
    k,
    (d) => ((u[d] as number) ** 2 * total) / (total - (stats.n[d] as number)),
  );
  return { se: Math.sqrt(sum) / total, df: cr2DegreesOfFreedom(stats) };
}
