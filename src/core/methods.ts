import type { Estimand } from "./types.js";

/** Interval method ids: part of the output contract (SPEC §3, §10). The only list of them. */
export type MethodId =
  | "t"
  | "t-differing"
  | "cr1"
  | "cr2"
  | "wald-iid"
  | "wald-effective-n"
  | "logit"
  | "logit-cv3"
  | "bootstrap-t"
  | "bootstrap-percentile"
  | "chunk-bootstrap"
  | "stratified"
  | "two-stage";

export interface MethodInfo {
  readonly id: MethodId;
  readonly estimands: readonly Estimand[];
  /** Whether the method is a contrast, shown to explain the mistake, not to use. */
  readonly contrast: boolean;
  readonly label: string;
  readonly degreesOfFreedom: string;
}

export const METHODS: Readonly<Record<MethodId, MethodInfo>> = {
  t: {
    id: "t",
    estimands: ["macro"],
    contrast: false,
    label: "t on the K document rates",
    degreesOfFreedom: "K − 1",
  },
  "t-differing": {
    id: "t-differing",
    estimands: ["macro"],
    contrast: false,
    label:
      "t on the K document differences with ν = D − 1, D the documents whose difference is not 0",
    degreesOfFreedom: "D − 1 (at least 1)",
  },
  cr2: {
    id: "cr2",
    estimands: ["micro"],
    contrast: false,
    label: "CR2 cluster-robust (bias-reduced linearisation)",
    degreesOfFreedom: "Imbens–Kolesár",
  },
  cr1: {
    id: "cr1",
    estimands: ["micro"],
    contrast: true,
    label: "CR1 cluster-robust, small-sample bias uncorrected",
    degreesOfFreedom: "K − 1",
  },
  "wald-iid": {
    id: "wald-iid",
    estimands: ["micro", "macro"],
    contrast: true,
    label: "Wald treating every result as independent",
    degreesOfFreedom: "normal",
  },
  "wald-effective-n": {
    id: "wald-effective-n",
    estimands: ["micro", "macro"],
    contrast: true,
    label: "Wald with n = N / DEFF",
    degreesOfFreedom: "normal",
  },
  logit: {
    id: "logit",
    estimands: ["micro", "macro"],
    contrast: false,
    label: "delta method on the logit scale around the recommended se",
    degreesOfFreedom: "as the recommended method",
  },
  "logit-cv3": {
    id: "logit-cv3",
    estimands: ["micro"],
    contrast: false,
    label: "leave-one-document-out (jackknife, CV3) variance on the logit scale",
    degreesOfFreedom: "Satterthwaite ν₃ of the CV3 form",
  },
  "bootstrap-t": {
    id: "bootstrap-t",
    estimands: ["micro", "macro"],
    contrast: false,
    label: "document bootstrap, studentised by each replicate's own se (macro sd/√K, micro CR1)",
    degreesOfFreedom: "none (bootstrap quantiles)",
  },
  "bootstrap-percentile": {
    id: "bootstrap-percentile",
    estimands: ["micro", "macro"],
    contrast: false,
    label: "document bootstrap, percentile",
    degreesOfFreedom: "none (bootstrap quantiles)",
  },
  "chunk-bootstrap": {
    id: "chunk-bootstrap",
    estimands: ["micro", "macro"],
    contrast: true,
    label: "bootstrap of results ignoring documents",
    degreesOfFreedom: "none (bootstrap quantiles)",
  },
  stratified: {
    id: "stratified",
    estimands: ["micro", "macro"],
    contrast: false,
    label: "stratified SRS: combined ratio (micro) or Σ W_h r̄_h (macro), per-stratum fpc",
    degreesOfFreedom: "K − H",
  },
  "two-stage": {
    id: "two-stage",
    estimands: ["micro", "macro"],
    contrast: false,
    label: "two-stage SRS: first- and second-stage variance terms, each with its fpc",
    degreesOfFreedom: "m − 1",
  },
};

/**
 * The recommended interval per estimand for a metric in [0, 1]: micro logit-cv3, macro logit.
 * ragci's coverage studies (docs/choosing-an-interval.md; bench/method-guide) found them the
 * only ones near 95% at K = 5–20 on censuses with even to heavy-tailed sizes, where cr2 and t
 * fell to 73–91%, at about the same width where sizes are even.
 */
export const RECOMMENDED_METHOD: Readonly<Record<Estimand, MethodId>> = {
  micro: "logit-cv3",
  macro: "logit",
};

/** Where the bounded interval does not exist (a score outside [0, 1], an estimate of 0 or 1, a differences' metric): cr2 and t. */
export const FALLBACK_METHOD: Readonly<Record<Estimand, MethodId>> = {
  micro: "cr2",
  macro: "t",
};

/**
 * For paired differences b − a (compare), where no bounded interval applies: micro cr2, and
 * macro t with ν = D − 1 (D the documents that differ). On tie-heavy differences ragci's paired
 * studies (bench/method-guide/paired.json) found macro t with ν = K − 1 at 84.7–95.4% of 95% at
 * K = 20 and t with ν = D − 1 at 93.2–98.2%; without ties D = K and the two are the same.
 */
export const DIFFERENCE_METHOD: Readonly<Record<Estimand, MethodId>> = {
  micro: "cr2",
  macro: "t-differing",
};

/**
 * The recommended method if its interval is available, else the fallback; for paired
 * differences, DIFFERENCE_METHOD's.
 */
export function recommendedMethod(
  estimand: Estimand,
  intervals: Readonly<Partial<Record<MethodId, { readonly available: boolean }>>>,
  differences = false,
): MethodId {
  const preferred = (differences ? DIFFERENCE_METHOD : RECOMMENDED_METHOD)[estimand];
  return intervals[preferred]?.available ? preferred : FALLBACK_METHOD[estimand];
}

/** The question each estimand answers, as written in every report (SPEC §2), for 0/1 metrics. */
export const ESTIMAND_QUESTION: Readonly<Record<Estimand, string>> = {
  micro: "rate of a random result",
  macro: "rate of a typical document",
};

/** The question for this metric: a rate for 0/1 results, a mean for scores. */
export function estimandQuestion(estimand: Estimand, binary: boolean): string {
  if (binary) return ESTIMAND_QUESTION[estimand];
  return estimand === "micro" ? "mean of a random result" : "mean of a typical document";
}
