import { FEWEST_DIFFERING_DOCUMENTS } from "./diagnostics/differingDocuments.js";
import type { Estimand } from "./types.js";

/**
 * Why ragci recommends no interval for an estimand: the sample's own diagnostics put it where
 * ragci's studies found every interval below the target (bench/method-guide/WITHHELD.md). The
 * intervals are still computed and shown, as not recommended.
 */
export interface RecommendationWithheld {
  /** The advice code that says why, in the report's advice. */
  readonly code: "few-differing-documents";
  /** One line: what the sample shows and what to do instead. */
  readonly reason: string;
}

/**
 * The share of all results in the sample's largest 10% of documents from which the
 * power-law-sizes warning is given. It does not withhold the micro recommendation: in ragci's
 * studies (WITHHELD.md) the samples this concentrated were the ones whose logit-cv3 interval
 * covered best on every census, the power-law one included; the samples that missed were those
 * that drew none of the census's largest documents and so looked light-tailed, which no
 * statistic of the sample's sizes tried (this share at 0.5–0.9, the largest document's share,
 * Kish's effective K, the spread, skewness or Hill index of the log sizes) could tell apart.
 */
export const POWER_LAW_DECILE_SHARE = 0.8;

export interface WithholdingInput {
  readonly estimands: readonly Estimand[];
  /** An SRS sample that is not the whole population (no design, K < M): the SRS advice applies. */
  readonly srsSample: boolean;
  /** Paired differences (compare): the documents whose difference is not 0. */
  readonly differingDocuments?: number;
}

/**
 * Per estimand, why no interval is recommended, if none is: in a paired comparison of an SRS
 * sample, fewer than FEWEST_DIFFERING_DOCUMENTS documents differ (both estimands; with none
 * differing the interval is the point 0). Empty otherwise. Under a stratified or two-stage
 * design, or with a census study (applyCensusStudy), other evidence speaks.
 *
 * @example withheldRecommendations({ estimands: ["micro", "macro"], srsSample: true, differingDocuments: 3 }).macro?.code
 *   // => "few-differing-documents"
 */
export function withheldRecommendations(
  input: WithholdingInput,
): Partial<Record<Estimand, RecommendationWithheld>> {
  const differing = input.differingDocuments;
  if (!input.srsSample || differing === undefined || differing >= FEWEST_DIFFERING_DOCUMENTS)
    return {};
  const out: Partial<Record<Estimand, RecommendationWithheld>> = {};
  for (const estimand of input.estimands) {
    out[estimand] = {
      code: "few-differing-documents",
      reason: `only ${differing} ${differing === 1 ? "document differs" : "documents differ"} between the two systems (fewer than ${FEWEST_DIFFERING_DOCUMENTS}), where ragci's paired studies found no interval of the difference reliable; label more documents`,
    };
  }
  return out;
}
