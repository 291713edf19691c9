import { optionRef, RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";
import type { CensusStratum } from "./predictedStandardErrors.js";

/** A size stratum of a census: "large" holds the documents with n_d > cutoff. */
export interface SizeStratum extends CensusStratum {
  readonly name: "large" | "small";
  /** Σ n_d over the stratum's documents: the results it holds. */
  readonly results: number;
}

/**
 * Splits a census at a size cutoff (SPEC §4's size stratification helper): large are the
 * documents with more than `cutoff` results, small the rest; positions in census order.
 * Either stratum may be empty; callers decide whether that is an error.
 *
 * @example sizeStrata(Float64Array.of(3, 90, 5), 76) // => [{ name: "large", documents: [1], results: 90 }, { name: "small", documents: [0, 2], results: 8 }]
 */
export function sizeStrata(sizes: Float64Array, cutoff: number): [SizeStratum, SizeStratum] {
  const large: number[] = [];
  const small: number[] = [];
  // Result counts are whole numbers, so these sums are exact (below 2⁵³).
  let largeResults = 0;
  let smallResults = 0;
  sizes.forEach((n, d) => {
    if (n > cutoff) {
      large.push(d);
      largeResults += n;
    } else {
      small.push(d);
      smallResults += n;
    }
  });
  return [
    { name: "large", documents: large, results: largeResults },
    { name: "small", documents: small, results: smallResults },
  ];
}

/**
 * Size strata of the census at `cutoff` to sample from, refused when a stratum is empty. A
 * stratum of one document (a document larger than every other, say) is taken whole: a
 * certainty stratum, which adds no sampling variance.
 */
export function sizeStrataToSample(
  census: DocumentStats,
  cutoff: number,
): [SizeStratum, SizeStratum] {
  const strata = sizeStrata(census.n, cutoff);
  const empty = strata.find((h) => h.documents.length === 0);
  if (empty) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("cutoff")} ${cutoff}: the ${empty.name} stratum would hold no document; give a cutoff from the smallest size up to below the largest (ragci strata proposes one)`,
    );
  }
  return strata;
}
