import { RagciError } from "../errors.js";
import { tQuantile } from "../numeric/distributions.js";
import {
  type PlanningInput,
  planningDegreesOfFreedom,
  validatePlanningInput,
} from "./planningHalfWidth.js";
import { smallestDocuments, smallestDocumentsWithinLimit } from "./smallestDocuments.js";

/**
 * Paired plan: smallest K ≥ 2 with (t(1 − α/2; K − 1) + t(power; K − 1)) · S/√K · √(1 − K/M)
 * ≤ |d| (ν = K − 1, or planningDegreesOfFreedom with a differing share), S the sd of the
 * per-document differences (macro) or of their residuals over n̄
 * (micro): the usual normal-theory power calculation with t quantiles (a two-sided test at
 * level α detects a true difference d with the given power). Power 0.5 reduces it to the
 * half-width rule with w = |d|.
 *
 * @example requiredDocumentsToDetect({ sd: 0.2, difference: 0.05, power: 0.8, level: 0.95, population: null })
 *   // => 128
 */
export function requiredDocumentsToDetect(input: DetectionInput): number {
  return smallestDocuments(detects(input), input.population ?? null);
}

/** `requiredDocumentsToDetect`, with null when no K up to 10¹² is enough. */
export function requiredDocumentsToDetectWithinLimit(input: DetectionInput): number | null {
  return smallestDocumentsWithinLimit(detects(input), input.population ?? null);
}

export type DetectionInput = PlanningInput & {
  readonly difference: number;
  readonly power?: number;
};

/** Whether K documents detect the difference with the power asked (checked input). */
function detects(input: DetectionInput): (k: number) => boolean {
  validatePlanningInput(input);
  const power = input.power ?? 0.8;
  if (!(power >= 0.5 && power < 1))
    throw new RagciError("invalid-option", `power ${power} must be in [0.5, 1)`);
  const d = Math.abs(input.difference);
  if (!(d > 0 && Number.isFinite(d)))
    throw new RagciError(
      "invalid-option",
      `difference ${input.difference} must be a non-zero number`,
    );
  const level = input.level ?? 0.95;
  const m = input.population ?? null;
  return (k: number) => {
    const fpc = m === null ? 1 : Math.max(0, 1 - k / m);
    const df = planningDegreesOfFreedom(input, k);
    const q = tQuantile(1 - (1 - level) / 2, df) + (power === 0.5 ? 0 : tQuantile(power, df));
    return q * (input.sd / Math.sqrt(k)) * Math.sqrt(fpc) <= d;
  };
}
