import { compensatedSumOf } from "../numeric/compensatedSum.js";
import type { DocumentStats, StandardError } from "../types.js";
import { requireTwoDocuments } from "./requireDocuments.js";

/**
 * Standard error of the macro average: se = sd(r_d) / √K with ν = K − 1 (the usual t
 * interval on the K document rates; survey's svymean of r_d under SRS).
 * The variance is computed in two compensated passes (mean, then Σ (r_d − r̄)²).
 *
 * @throws RagciError "too-few-documents" when K < 2
 */
export function macroT(stats: DocumentStats): StandardError {
  const k = requireTwoDocuments(stats);
  const rate = (d: number) => (stats.s[d] as number) / (stats.n[d] as number);
  const mean = compensatedSumOf(k, rate) / k;
  const sumSquares = compensatedSumOf(k, (d) => (rate(d) - mean) ** 2);
  return { se: Math.sqrt(sumSquares / (k - 1) / k), df: k - 1 };
}
