import {
  DIFFERENCE_METHOD,
  FALLBACK_METHOD,
  METHODS,
  type MethodId,
  RECOMMENDED_METHOD,
} from "../methods.js";
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

/** How far below the nominal level a method may cover and still count as reaching it, at least. */
export const COVERAGE_TOLERANCE = 0.01;

/**
 * Monte Carlo standard errors within which two coverages (or a coverage and the target) are
 * not told apart: about a 95% band for one comparison.
 */
export const MC_MARGIN = 2;

/** The Monte Carlo standard error of a coverage p estimated from `reps` repetitions. */
export function monteCarloSe(p: number, reps: number): number {
  return Math.sqrt((p * (1 - p)) / reps);
}

/**
 * The lower end of the Wilson score interval for a coverage p seen in `reps` repetitions, at
 * MC_MARGIN standard errors: the coverage less MC_MARGIN Monte Carlo se, with the se taken at
 * the bound rather than at p. √(p(1 − p)/reps) is 0 at p = 1, so p − 2 se would call 20 of 20
 * (or 1 of 1) covered "beyond Monte Carlo doubt"; the score bound is 0.83 for 20 of 20.
 */
export function coverageLowerBound(p: number, reps: number): number {
  const z2 = MC_MARGIN * MC_MARGIN;
  const centre = p + z2 / (2 * reps);
  const spread = MC_MARGIN * Math.sqrt((p * (1 - p)) / reps + z2 / (4 * reps * reps));
  return (centre - spread) / (1 + z2 / reps);
}

/**
 * The lowest coverage that counts as reaching the nominal level in a study of `reps`
 * repetitions: the level less MC_MARGIN Monte Carlo standard errors (at the level), and never
 * less tolerant than COVERAGE_TOLERANCE.
 */
export function reachingThreshold(level: number, reps: number): number {
  return level - Math.max(COVERAGE_TOLERANCE, MC_MARGIN * monteCarloSe(level, reps));
}

export interface StudyRecommendation {
  readonly method: MethodId;
  /** Whether it reached the nominal level within the study's margin (else: the best there was). */
  readonly reachesNominal: boolean;
  readonly coverage: number;
  /** The Monte Carlo standard error of that coverage, √(p(1 − p)/reps). */
  readonly mcse: number;
  readonly meanWidth: number | null;
  /** The coverage a method needed to count as reaching the level (reachingThreshold). */
  readonly threshold: number;
  /** The candidates that reached it, narrowest first (empty when none did). */
  readonly reaching: readonly MethodId[];
  /** Whether the pick is the robust default (micro logit-cv3, macro logit; differences cr2, t-differing; else cr2, t). */
  readonly robustDefault: boolean;
}

/**
 * The interval a study recommends for one estimand, accounting for Monte Carlo error so that
 * the pick does not flip with the seed or the number of repetitions:
 * 1. the candidates are the methods that are not contrasts (and valid under the design);
 * 2. a candidate reaches the level when its coverage is at least reachingThreshold (the level
 *    less 2 MC se, or 1 point where that is more);
 * 3. the robust default (micro logit-cv3, macro logit; for differences micro cr2 and macro
 *    t-differing; else cr2 and t where the logit intervals do not apply) is picked when it reaches the level, unless a narrower
 *    method shows that it reaches it too beyond Monte Carlo doubt (coverageLowerBound, its
 *    coverage less 2 MC se in the score form that stays honest at 100%, is at least the level
 *    less 1 point): then the narrowest such method. A narrower method
 *    whose coverage the study cannot tell from a miss does not displace the default, which is
 *    what made the old "≥ 94%, then narrowest" rule flip between seeds;
 * 4. if the default does not reach the level, the narrowest that does;
 * 5. if none reaches it, the one that covers most, and it says so.
 * Unavailable intervals count as misses, so a method that is often unavailable cannot win by
 * being narrow when it exists.
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
    .map(([key, score]) => ({
      method: key.split("/")[1] as MethodId,
      coverage: score.coverage,
      width: score.meanWidth as number,
    }))
    .filter(
      ({ method, width }) =>
        !METHODS[method].contrast &&
        eligible(method) &&
        validUnder(study, method) &&
        width !== null,
    );
  if (candidates.length === 0) return null;
  const reps = study.reps;
  const se = (p: number) => monteCarloSe(p, reps);
  const threshold = reachingThreshold(study.level, reps);
  const reaching = candidates
    .filter((c) => c.coverage >= threshold)
    .sort((a, b) => a.width - b.width);
  // A study of paired differences scores t-differing (and no logit): its default is compare's.
  const robust = [
    RECOMMENDED_METHOD[estimand],
    DIFFERENCE_METHOD[estimand],
    FALLBACK_METHOD[estimand],
  ]
    .map((method) => candidates.find((c) => c.method === method))
    .find((c) => c !== undefined);
  const recommendation = (pick: (typeof candidates)[number]): StudyRecommendation => ({
    method: pick.method,
    reachesNominal: reaching.length > 0,
    coverage: pick.coverage,
    mcse: se(pick.coverage),
    meanWidth: pick.width,
    threshold,
    reaching: reaching.map((c) => c.method),
    robustDefault: pick === robust,
  });
  if (reaching.length === 0) {
    return recommendation(candidates.reduce((a, b) => (b.coverage > a.coverage ? b : a)));
  }
  if (robust && reaching.includes(robust)) {
    const surely = reaching.find(
      (c) =>
        c.width < robust.width &&
        coverageLowerBound(c.coverage, reps) >= study.level - COVERAGE_TOLERANCE,
    );
    return recommendation(surely ?? robust);
  }
  return recommendation(reaching[0] as (typeof candidates)[number]);
}
