import { METHODS, type MethodId } from "../methods.js";
import type { Estimand } from "../types.js";
import type { StudyMethod } from "./coverageStudy.js";
import type { StudyResult } from "./studySummary.js";

/**
 * Under a stratified or two-stage design only the design-based intervals are valid (the
 * design's own, and the logit interval rebuilt on it); the SRS formulas ignore the weights and,
 * under two stages, the clustering of documents in units.
 */
function validUnder(study: StudyResult, method: MethodId): boolean {
  return study.design.kind === "srs" || method === study.design.kind || method === "logit";
}

/** How far below the nominal level a method may cover and still count as reaching it. */
export const COVERAGE_TOLERANCE = 0.01;

export interface StudyRecommendation {
  readonly method: MethodId;
  /** Whether it reached the nominal level within COVERAGE_TOLERANCE (else: the best there was). */
  readonly reachesNominal: boolean;
  readonly coverage: number;
  readonly meanWidth: number | null;
}

/**
 * The interval a study recommends for one estimand: among the methods that are not contrasts
 * and cover at least the nominal level less 1 point, the narrowest on average; if none does,
 * the one that covers most (and it says so). Unavailable intervals count as misses, so a
 * method that is often unavailable cannot win by being narrow when it exists.
 */
export function recommendFromStudy(
  study: StudyResult,
  estimand: Estimand,
  eligible: (method: MethodId) => boolean = () => true,
): StudyRecommendation | null {
  const candidates = (
    Object.entries(study.methods) as [StudyMethod, StudyResult["methods"][StudyMethod]][]
  )
    .filter(([key]) => key.startsWith(`${estimand}/`))
    .map(([key, score]) => ({ method: key.split("/")[1] as MethodId, score }))
    .filter(
      ({ method, score }) =>
        !METHODS[method].contrast &&
        eligible(method) &&
        validUnder(study, method) &&
        score.meanWidth !== null,
    );
  if (candidates.length === 0) return null;
  const reaching = candidates.filter(
    ({ score }) => score.coverage >= study.level - COVERAGE_TOLERANCE,
  );
  const pick =
    reaching.length > 0
      ? reaching.reduce((a, b) =>
          (b.score.meanWidth as number) < (a.score.meanWidth as number) ? b : a,
        )
      : candidates.reduce((a, b) => (b.score.coverage > a.score.coverage ? b : a));
  return {
    method: pick.method,
    reachesNominal: reaching.length > 0,
    coverage: pick.score.coverage,
    meanWidth: pick.score.meanWidth,
  };
}
