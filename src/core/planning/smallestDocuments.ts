import { RagciError } from "../errors.js";

/**
 * Smallest K ≥ 2 for which `fits(K)` holds, given that once it holds it holds for every larger
 * K: doubling then bisection, O(log K) calls. With a population M the search stops at M
 * (a census always fits).
 */
export function smallestDocuments(fits: (k: number) => boolean, population: number | null): number {
  if (fits(2)) return 2;
  let low = 2; // does not fit
  let high = 4;
  while (!fits(high)) {
    low = high;
    if (population !== null && high >= population) return population;
    high = population === null ? high * 2 : Math.min(high * 2, population);
    if (high > 1e12)
      throw new RagciError("invalid-option", "the plan needs more than 10¹² documents");
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) high = mid;
    else low = mid;
  }
  return high;
}
