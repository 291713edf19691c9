import { optionRef, RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";
import { type SizeStrataDesign, sizeStrataDesign } from "./sizeStrataDesign.js";

/**
 * Two strata of two sampled documents each (a stratum's variance needs two; a stratum of one
 * document is taken whole, but a census too small for two of two is better sampled by SRS).
 */
const FEWEST_SAMPLED = 4;

/**
 * The size-strata design for K documents of the census (sizeStrataDesign), refused with the
 * option to change when there is none.
 *
 * @param source the census as messages name it (a file, or a database source)
 * @throws RagciError "invalid-option" when K is below 4 or above the census's M documents, or
 *   when every cutoff (or the given one) leaves a stratum empty
 */
export function checkedSizeStrataDesign(
  census: DocumentStats,
  documents: number,
  cutoff: number | undefined,
  source: string,
): SizeStrataDesign {
  const population = census.n.length;
  if (population < FEWEST_SAMPLED) {
    throw new RagciError(
      "invalid-option",
      `${source}: a census of ${population} document${population === 1 ? "" : "s"} cannot be split into two strata of two sampled documents each (${FEWEST_SAMPLED} at least); stratifying needs a larger census`,
    );
  }
  if (documents < FEWEST_SAMPLED || documents > population) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("documents")} ${documents}: give between ${FEWEST_SAMPLED} and the census's ${population} documents`,
    );
  }
  const design = sizeStrataDesign(census, documents, cutoff);
  if (design) return design;
  throw new RagciError(
    "invalid-option",
    cutoff !== undefined
      ? `${optionRef("cutoff")} ${cutoff}: a stratum would hold no document (${sizeSpread(census.n)}); give a cutoff from the smallest size up to below the largest, or leave it out and one is proposed`
      : `${source}: no size cutoff splits these documents in two (${sizeSpread(census.n)}); sample them by SRS (ragci plan gives K)`,
  );
}

/** What the census's sizes are, for the refusal: all the same, or their least and largest. */
function sizeSpread(n: Float64Array): string {
  let least = Number.POSITIVE_INFINITY;
  let largest = Number.NEGATIVE_INFINITY;
  let atLargest = 0;
  for (const x of n) {
    if (x < least) least = x;
    if (x > largest) {
      largest = x;
      atLargest = 0;
    }
    if (x === largest) atLargest++;
  }
  if (least === largest) return `every document has ${least} results`;
  return `sizes run from ${least} to ${largest} results, and ${atLargest} ${atLargest === 1 ? "document has" : "documents have"} the largest`;
}
