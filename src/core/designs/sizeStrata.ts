import type { CensusStratum } from "./predictedStandardErrors.js";

/** A size stratum of a census: "large" holds the documents with n_d > cutoff. */
export interface SizeStratum extends CensusStratum {
  readonly name: "large" | "small";
}

/**
 * Splits a census at a size cutoff (SPEC §4's size stratification helper): large are the
 * documents with more than `cutoff` results, small the rest; positions in census order.
 * Either stratum may be empty; callers decide whether that is an error.
 *
 * @example sizeStrata(Float64Array.of(3, 90, 5), 76) // => [{ name: "large", documents: [1] }, { name: "small", documents: [0, 2] }]
 */
export function sizeStrata(sizes: Float64Array, cutoff: number): [SizeStratum, SizeStratum] {
  const large: number[] = [];
  const small: number[] = [];
  sizes.forEach((n, d) => {
    (n > cutoff ? large : small).push(d);
  });
  return [
    { name: "large", documents: large },
    { name: "small", documents: small },
  ];
}
