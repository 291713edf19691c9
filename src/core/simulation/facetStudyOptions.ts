import { optionRef, RagciError } from "../errors.js";
import type { StudyPlanOptions } from "./studyPlan.js";

/** The options of a census study that a faceted pilot's study has no use for, in order. */
const CENSUS_STUDY_OPTIONS = [
  "sampling",
  "design",
  "fpc",
  "chunkBootstrap",
  "units",
  "perUnit",
  "cutoff",
  "psu",
] as const;

/**
 * A faceted pilot (trial, judge or variant columns) is studied by drawing evaluations from its
 * components, not samples from a census: a census study's option would be ignored, so it is
 * refused, as is more than one number of repetitions (the faceted study takes one for every K).
 *
 * @throws RagciError "invalid-option" naming the first such option
 */
export function refuseCensusOptionsInFacetStudy(
  options: StudyPlanOptions & { readonly fpc?: boolean; readonly chunkBootstrap?: boolean },
): void {
  const given = CENSUS_STUDY_OPTIONS.find((name) => {
    const value = options[name];
    return value !== undefined && value !== false;
  });
  if (given !== undefined)
    throw new RagciError(
      "invalid-option",
      `${optionRef(given)} is for a census study; with ${optionRef("trial")}, ${optionRef("judge")} or ${optionRef("variant")} simulate studies a faceted pilot without it`,
      { option: given },
    );
  if (options.reps && options.reps.length > 1)
    throw new RagciError(
      "invalid-option",
      `${optionRef("reps")}: a faceted study takes one number of repetitions for every ${optionRef("k")}`,
      { option: "reps" },
    );
}
