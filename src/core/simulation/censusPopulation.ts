import { optionRef, RagciError } from "../errors.js";

/**
 * M for an analysis checked against a census: the census holds every document of the
 * population, so its document count is M, and the intervals and the study at the sample's K
 * both apply the fpc 1 − K/M (SPEC §3) — a study without it scores intervals that ignore what
 * the census says and over-cover. A --population that disagrees with the census is refused.
 *
 * @throws RagciError "invalid-option" when `given` is not the census's document count
 */
export function censusPopulation(
  censusDocuments: number,
  given: number | null,
  census: string,
): number {
  if (given !== null && given !== censusDocuments) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("census")} ${census} has ${censusDocuments} documents but ${optionRef("population")} says ${given}: a census holds every document of the population; drop ${optionRef("population")} (the census gives M) or give the whole census`,
      { file: census, option: "population" },
    );
  }
  return censusDocuments;
}
