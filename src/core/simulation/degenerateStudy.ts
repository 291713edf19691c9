import { RagciError } from "../errors.js";

/**
 * What to do instead of a study that cannot miss: the defaults come from ragci's own studies
 * on censuses larger than the samples (SPEC §3), not from a study of the sample itself.
 */
export const DEGENERATE_STUDY_ADVICE =
  "give a census larger than the sample, or use the default recommendation (micro logit-cv3, macro logit)";

/**
 * Refuses a coverage study of K documents drawn from a census of M ≤ K: at K = M every sample is
 * the census itself, so every interval "covers" by construction and the study would be taken as
 * evidence for the narrowest interval (a sample used as its own census). K > M cannot be drawn.
 *
 * @param where what the message starts with: the option or file that set K or the census
 * @param file the census file, when there is one
 * @throws RagciError "invalid-option", one line
 */
export function refuseDegenerateStudy(
  documents: number,
  censusDocuments: number,
  where: string,
  file?: string,
): void {
  if (documents < censusDocuments) return;
  const what =
    documents === censusDocuments
      ? `a study at K = M = ${documents} cannot miss: every sample is the census itself`
      : `K = ${documents} is more than the census's ${censusDocuments} documents`;
  throw new RagciError(
    "invalid-option",
    `${where}: ${what}; ${DEGENERATE_STUDY_ADVICE}`,
    file === undefined ? {} : { file },
  );
}
