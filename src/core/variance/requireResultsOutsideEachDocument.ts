import { RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";

/**
 * Checks N − n_d > 0 for every d, i.e. h_d < 1: leave-one-document-out quantities (R₍d₎,
 * 1/(1 − h_d)) exist. With K ≥ 2 and every n_d > 0 this fails only when the other documents'
 * results vanish in the rounding of N (N ≳ 2⁵³).
 *
 * @throws RagciError "single-document-holds-all" naming the document
 */
export function requireResultsOutsideEachDocument(stats: DocumentStats, total: number): void {
  for (let d = 0; d < stats.n.length; d++) {
    if (!(total - (stats.n[d] as number) > 0)) {
      throw new RagciError(
        "single-document-holds-all",
        `document "${stats.ids[d]}" holds every result (h_d = 1); leave-one-document-out (CV3) needs results outside every document`,
        { document: stats.ids[d] as string },
      );
    }
  }
}
