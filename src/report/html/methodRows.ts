import type { Analysis, EstimandAnalysis } from "../../core/analyze.js";
import { METHODS, type MethodId } from "../../core/methods.js";
import type { Interval } from "../../core/types.js";

/**
 * "withheld": the interval ragci would recommend, shown but not recommended because the
 * sample is where no interval held in its studies (EstimandAnalysis.recommendationWithheld).
 */
export type MethodRole = "recommended" | "withheld" | "also" | "contrast";

export interface MethodRow {
  readonly estimand: "micro" | "macro";
  readonly method: MethodId;
  readonly role: MethodRole;
  readonly estimate: number;
  readonly interval: Interval;
  /** Why the recommendation is withheld (role "withheld"). */
  readonly withheld?: string;
}

/** The terminal's order after the recommended interval: the usable ones, then the contrasts. */
const ALSO: readonly MethodId[] = [
  "stratified",
  "two-stage",
  "cr2",
  "t",
  "logit",
  "logit-cv3",
  "bootstrap-t",
  "bootstrap-percentile",
];
const CONTRASTS: readonly MethodId[] = ["cr1", "wald-iid", "wald-effective-n", "chunk-bootstrap"];

/**
 * Every interval of an analysis in reading order: per estimand the recommended one, the other
 * usable ones, then the contrasts (shown to explain the mistake) — the rows of the interval
 * table and figure.
 */
export function methodRows(a: Analysis): MethodRow[] {
  const estimands = [a.micro, a.macro].filter((e): e is EstimandAnalysis => e !== null);
  return estimands.flatMap((e) => {
    const row = (method: MethodId, role: MethodRole): MethodRow[] => {
      const interval = e.intervals[method];
      return interval
        ? [
            {
              estimand: e.estimand,
              method,
              role,
              estimate: e.estimate,
              interval,
              ...(role === "withheld" && e.recommendationWithheld
                ? { withheld: e.recommendationWithheld.reason }
                : {}),
            },
          ]
        : [];
    };
    return [
      ...row(e.recommended, e.recommendationWithheld ? "withheld" : "recommended"),
      ...ALSO.filter((m) => m !== e.recommended && !METHODS[m].contrast)
        // Under a stratified or two-stage design cr2 and t treat the sample as SRS: the terminal leaves them out too.
        .filter((m) => a.design.kind === "srs" || (m !== "cr2" && m !== "t"))
        .flatMap((m) => row(m, "also")),
      ...CONTRASTS.filter((m) => m !== e.recommended).flatMap((m) => row(m, "contrast")),
    ];
  });
}
