import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";

export interface MicroResiduals {
  /** R = Σs / Σn. */
  readonly estimate: number;
  /** N = Σ n_d. */
  readonly total: number;
  /** u_d = s_d − R·n_d, the ratio estimator's linearised residuals (Σ u_d = 0). */
  readonly u: Float64Array;
}

/**
 * @example microResiduals(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }))
 *   // => { estimate: 0.5, total: 14, u: [0, 1.5, -0.5, -1] }
 */
export function microResiduals(stats: DocumentStats): MicroResiduals {
  const total = compensatedSum(stats.n);
  const estimate = compensatedSum(stats.s) / total;
  const u = new Float64Array(stats.n.length);
  for (let d = 0; d < u.length; d++)
    u[d] = (stats.s[d] as number) - estimate * (stats.n[d] as number);
  return { estimate, total, u };
}
