import { NeumaierSum } from "../numeric/compensatedSum.js";
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
  const { n, s } = stats;
  const rates = new NeumaierSum();
  for (let d = 0; d < k; d++) rates.add((s[d] as number) / (n[d] as number));
  const mean = rates.value() / k;
  const squares = new NeumaierSum();
  for (let d = 0; d < k; d++) squares.add(((s[d] as number) / (n[d] as number) - mean) ** 2);
  return { se: Math.sqrt(squares.value() / (k - 1) / k), df: k - 1 };
}
