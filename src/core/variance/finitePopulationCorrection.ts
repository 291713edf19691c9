import { RagciError } from "../errors.js";

/**
 * Finite population correction for SRS without replacement: variances are multiplied by
 * (1 − K/M), K sampled of M documents (Cochran 1977 §2.5). Standard errors by its square root.
 *
 * @throws RagciError "population-too-small" when M < K, "invalid-option" when M is not a
 *   positive integer
 *
 * @example finitePopulationCorrection(20, 100)
 *   // => 0.8
 */
export function finitePopulationCorrection(sampled: number, population: number): number {
  if (!Number.isInteger(population) || population < 1) {
    throw new RagciError(
      "invalid-option",
      `population size M = ${population} must be a positive whole number of documents`,
    );
  }
  if (population < sampled) {
    throw new RagciError(
      "population-too-small",
      `population size M = ${population} is smaller than the ${sampled} documents in the sample; M counts every document that could have been sampled`,
    );
  }
  return 1 - sampled / population;
}
