import type { MethodId } from "./methods.js";
import type { RecommendationWithheld } from "./recommendationWithheld.js";
import type { Estimand, Interval } from "./types.js";

/** One estimand's analysis: its question, estimate, intervals and the one recommended. */
export interface EstimandAnalysis {
  readonly estimand: Estimand;
  readonly question: string;
  readonly estimate: number;
  /**
   * The interval ragci's rule picks; when recommendationWithheld is set, the one it would pick,
   * shown as not recommended.
   */
  readonly recommended: MethodId;
  readonly intervals: Readonly<Partial<Record<MethodId, Interval>>>;
  /** Set when the sample's own diagnostics say no interval is reliable (recommendationWithheld.ts). */
  readonly recommendationWithheld?: RecommendationWithheld;
}
