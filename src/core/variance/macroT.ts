import { documentRates } from "../estimands/macroEstimate.js";
import { sampleVariance } from "../numeric/sampleStandardDeviation.js";
import type { DocumentStats, StandardError } from "../types.js";
import { requireTwoDocuments } from "./requireTwoDocuments.js";

/**
 * Standard error of the macro average: se = sd(r_d) / √K with ν = K − 1 (the usual t
 * interval on the K document rates; survey's svymean of r_d under SRS).
 * The variance is computed in two compensated passes (mean, then Σ (r_d − r̄)²).
 *
 * @throws RagciError "too-few-documents" when K < 2
 *
 * @example macroT(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { se: 0.1625, df: 3 }
 */
export function macroT(stats: DocumentStats): StandardError {
  const k = requireTwoDocuments(stats);
  return { se: Math.sqrt(sampleVariance(documentRates(stats)) / k), df: k - 1 };
}
