import { RagciError } from "../errors.js";
import { tQuantile } from "../numeric/distributions.js";

export interface PlanningInput {
  /** S: the per-document standard deviation (macro: sd of r_d; micro: sd of u_d / n̄). */
  readonly sd: number;
  /** M, documents in the population; null for no finite-population correction. */
  readonly population?: number | null;
  /** Confidence level, default 0.95. */
  readonly level?: number;
  /**
   * A paired difference's share of documents that differ (a pilot's D/K): the macro interval
   * compare recommends, t-differing, has ν = D − 1, so K documents are planned with
   * ν = max(1, share·K − 1), the expected D less one. Absent: ν = K − 1.
   */
  readonly differingShare?: number;
}

/** The planned ν at K documents: K − 1, or with a differing share max(1, share·K − 1). */
export function planningDegreesOfFreedom(input: PlanningInput, k: number): number {
  const share = input.differingShare;
  return share === undefined ? k - 1 : Math.max(1, share * k - 1);
}

export function validatePlanningInput(input: PlanningInput): void {
  if (!(Number.isFinite(input.sd) && input.sd >= 0)) {
    throw new RagciError("invalid-option", `sd ${input.sd} must be a finite number ≥ 0`);
  }
  const m = input.population ?? null;
  if (m !== null && !(Number.isInteger(m) && m >= 2)) {
    throw new RagciError(
      "invalid-option",
      `population M = ${m} must be a whole number of documents ≥ 2`,
    );
  }
  const level = input.level ?? 0.95;
  if (!(level > 0 && level < 1))
    throw new RagciError("invalid-option", `level ${level} must be between 0 and 1`);
  const share = input.differingShare;
  if (share !== undefined && !(share >= 0 && share <= 1))
    throw new RagciError("invalid-option", `differing share ${share} must be between 0 and 1`);
}

/**
 * Planned half-width with K documents: t(1 − α/2; K − 1) · S/√K · √(1 − K/M) (SPEC §7; the
 * fpc factor is 1 without M). A planning approximation: it uses ν = K − 1 (with a differing
 * share, planningDegreesOfFreedom), not the CR2 ν.
 */
export function planningHalfWidth(input: PlanningInput & { readonly documents: number }): number {
  const k = input.documents;
  const level = input.level ?? 0.95;
  const m = input.population ?? null;
  const fpc = m === null ? 1 : Math.max(0, 1 - k / m);
  const df = planningDegreesOfFreedom(input, k);
  return tQuantile(1 - (1 - level) / 2, df) * (input.sd / Math.sqrt(k)) * Math.sqrt(fpc);
}
