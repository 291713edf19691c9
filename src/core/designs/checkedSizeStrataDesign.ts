import { optionRef, RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";
import { type SizeStrataDesign, sizeStrataDesign } from "./sizeStrataDesign.js";

/** Two strata of at least two sampled documents each (a stratum's variance needs two). */
const FEWEST_SAMPLED = 4;

/**
 * The size-strata design for K documents of the census (sizeStrataDesign), refused with the
 * option to change when there is none.
 *
 * @param source the census as messages name it (a file, or a database source)
 * @throws RagciError "invalid-option" when K is below 4 or above the census's M documents, or
 *   when no cutoff (or not the given one) leaves two documents in each stratum
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
      ? `${optionRef("cutoff")} ${cutoff}: each stratum needs at least two documents`
      : `${source}: no size cutoff leaves two documents in each stratum (${sizeSpread(census.n)}); sample these documents by SRS (ragci plan gives K)`,
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
