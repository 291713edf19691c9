import { optionRef, RagciError } from "../errors.js";

/**
 * The documents at which a plan shows the half-width: each K a whole number ≥ 2, at most M
 * when the population is known.
 *
 * @throws RagciError naming the K that is not
 */
export function checkCurve(curve: readonly number[], population: number | null): void {
  const name = optionRef("curve");
  for (const k of curve) {
    if (!Number.isInteger(k) || k < 2) {
      throw new RagciError(
        "invalid-option",
        `${name} ${k}: each K must be a whole number of documents ≥ 2 (e.g. ${name} 10,20,50)`,
        { option: "curve" },
      );
    }
    if (population !== null && k > population) {
      throw new RagciError(
        "invalid-option",
        `${name} ${k}: more than the population's ${population} documents`,
        { option: "curve" },
      );
    }
  }
}
