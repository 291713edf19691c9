import { RagciError } from "../errors.js";

/**
 * Smallest K ≥ `minimum` (default 2) for which `fits(K)` holds, given that once it holds it
 * holds for every larger K: doubling then bisection, O(log K) calls. With a population M the
 * search stops at M (a census always fits). A stratified plan starts at 2H (two per stratum).
 */
export function smallestDocuments(
  fits: (k: number) => boolean,
  population: number | null,
  minimum = 2,
): number {
  const k = smallestDocumentsWithinLimit(fits, population, minimum);
  if (k === null) throw new RagciError("invalid-option", "the plan needs more than 10¹² documents");
  return k;
}

/** Beyond this many documents a plan stops searching: no evaluation labels 10¹² documents. */
export const DOCUMENT_SEARCH_LIMIT = 1e12;

/** `smallestDocuments`, with null when no K up to DOCUMENT_SEARCH_LIMIT fits. */
export function smallestDocumentsWithinLimit(
  fits: (k: number) => boolean,
  population: number | null,
  minimum = 2,
): number | null {
  if (!(Number.isInteger(minimum) && minimum >= 1))
    throw new RagciError("invalid-option", `minimum K ${minimum} must be a whole number ≥ 1`);
  if (population !== null && minimum > population)
    throw new RagciError(
      "invalid-option",
      `minimum K ${minimum} is more than the population's ${population} documents`,
    );
  if (fits(minimum)) return minimum;
  let low = minimum; // does not fit
  let high = minimum * 2;
  if (population !== null) high = Math.min(high, population);
  while (!fits(high)) {
    low = high;
    if (population !== null && high >= population) return population;
    high = population === null ? high * 2 : Math.min(high * 2, population);
    if (high > DOCUMENT_SEARCH_LIMIT) return null;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) high = mid;
    else low = mid;
  }
  return high;
}
