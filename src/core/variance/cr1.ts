import { NeumaierSum } from "../numeric/compensatedSum.js";
import type { DocumentStats, StandardError } from "../types.js";
import { microResiduals } from "./microResiduals.js";
import { requireTwoDocuments } from "./requireTwoDocuments.js";

/**
 * CR1 standard error of the micro estimate R = Σs / Σn.
 *
 * se = √(K/(K−1) · Σ u_d²) / N with u_d = s_d − R·n_d; ν = K − 1.
 * Liang & Zeger (1986) with the K/(K−1) factor (clubSandwich "CR1"; survey's svyratio under SRS).
 *
 * @throws RagciError "too-few-documents" when K < 2
 *
 * @example cr1(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { se: 0.15430, df: 3 }
 */
export function cr1(stats: DocumentStats): StandardError {
  const k = requireTwoDocuments(stats);
  const { u, total } = microResiduals(stats);
  const sumU2 = new NeumaierSum();
  for (let d = 0; d < k; d++) sumU2.add((u[d] as number) ** 2);
  return { se: Math.sqrt((k / (k - 1)) * sumU2.value()) / total, df: k - 1 };
}
