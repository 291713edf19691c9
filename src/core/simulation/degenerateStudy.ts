import { allRatesEqual } from "../diagnostics/rateDistribution.js";
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

/**
 * Refuses a coverage study of a census whose documents all have the same rate s_d/n_d (every
 * result 0, every result 1, or two systems that agree on every document): every sample's micro
 * and macro estimates are then the census value, so every interval covers or is unavailable and
 * the study cannot tell the intervals apart, as at K = M.
 *
 * @param where what the message starts with: the census file
 * @param pair the two systems of a paired census (its per-document differences), or null
 * @param differences the census is of per-document differences whose systems are not named here
 * @throws RagciError "invalid-option", one line
 */
export function refuseConstantCensus(
  stats: { readonly n: ArrayLike<number>; readonly s: ArrayLike<number> },
  where: string,
  pair: { readonly a: string; readonly b: string } | null,
  differences = pair !== null,
): void {
  if (stats.n.length === 0 || !allRatesEqual(stats)) return;
  const rate = (stats.s[0] as number) / (stats.n[0] as number);
  const same = pair
    ? `every document's mean difference ${pair.b} − ${pair.a} is ${rate}`
    : differences
      ? `every document's mean difference is ${rate}`
      : `every document has the same rate (${rate})`;
  const defaults = differences
    ? "compare's: micro cr2, macro t-differing"
    : "micro logit-cv3, macro logit";
  throw new RagciError(
    "invalid-option",
    `${where}: ${same}, so every sample's estimate is the census value and no interval can miss: a coverage study cannot tell the intervals apart; use the default recommendation (${defaults})`,
  );
}
