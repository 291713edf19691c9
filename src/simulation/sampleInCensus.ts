import { optionRef, RagciError } from "../core/errors.js";

/** How many of the missing documents a message names. */
const NAMED = 3;

/**
 * Refuses a sample with documents the census does not hold: a census study draws samples from
 * the census's documents, so it speaks for the sample only when the sample was drawn from
 * them. `what` names the system × metric (or pair) the documents are of, if any. A census of
 * fewer documents than the sample is left to the study, which says so (studyAtSampleSize).
 *
 * @throws RagciError naming a few missing documents and how many there are
 */
export function refuseSampleOutsideCensus(
  sample: readonly string[],
  census: readonly string[],
  file: string,
  what: string | null,
): void {
  if (census.length < sample.length) return;
  const known = new Set(census);
  const missing = sample.filter((id) => !known.has(id));
  if (missing.length === 0) return;
  const named = missing
    .slice(0, NAMED)
    .map((id) => `"${id}"`)
    .join(", ");
  const more = missing.length > NAMED ? `, …` : "";
  throw new RagciError(
    "invalid-value",
    `${optionRef("census")} ${file}: ${missing.length} of the sample's ${sample.length} documents${what ? ` (${what})` : ""} ${missing.length === 1 ? "is" : "are"} not in it (${named}${more}); the census must hold every document of the population the sample was drawn from: give that census, with the same document column and ids as the sample`,
    { file, option: "census", document: missing[0] as string },
  );
}
