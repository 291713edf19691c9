import type { Diagnostics } from "./diagnostics/diagnose.js";
import type { Estimand } from "./types.js";

export type AdviceCode =
  | "very-few-documents"
  | "few-documents"
  | "micro-unequal-sizes"
  | "df-far-below-k"
  | "dominant-document"
  | "rates-at-bounds"
  | "interval-outside-unit"
  | "zero-standard-error"
  | "census"
  | "outside-inference"
  | "design-declared";

export interface Advice {
  readonly code: AdviceCode;
  readonly severity: "warning" | "note";
  readonly message: string;
}

/**
 * Coverages of the article's study at nominal 95% (SPEC §6): the evidence behind the advice.
 * Keys are situation/method.
 */
export const STUDY_COVERAGE = {
  "macro-k20/t": 0.93,
  "macro-k20/wald-iid-or-chunk-bootstrap": 0.597,
  "micro-unequal/cr2": 0.857,
  "micro-unequal/bootstrap-t": 0.884,
  "micro-unequal/cr1": 0.771,
  "micro-unequal/wald-iid": 0.295,
  "k5/micro-cr2": 0.866,
  "k5/bootstrap-t": 0.711,
  "k5/percentile": 0.75,
  "two-stage/t": 0.914,
  "paired/micro-cr2": 0.957,
  "paired/macro-t": 0.974,
} as const;

/**
 * Where the quoted coverages come from, said with each one: they hold for those conditions,
 * not for every K. The README's "Choosing an interval" section has the table.
 */
export const STUDY_CONDITIONS =
  "the article's study: SRS of K = 20 from a census of 1,300 documents with very unequal sizes; README, “Choosing an interval”";

const STUDY_CONDITIONS_K5 =
  "the article's sensitivity study: SRS of K = 5 from the same census; README, “Choosing an interval”";

export interface AdviceInput {
  readonly documents: number;
  readonly estimands: readonly Estimand[];
  readonly microDf: number | null;
  readonly seZero: boolean;
  readonly metricInUnitInterval: boolean;
  /** Whether every result is 0/1 (estimates are rates) rather than a score. */
  readonly binary: boolean;
  /** Whether a logit interval is available for every estimand reported. */
  readonly logitAvailable: boolean;
  /** Whether some recommended interval reaches below 0 or above 1. */
  readonly intervalOutsideUnit: boolean;
  readonly census: boolean;
  /** The design in force; under a stratified or two-stage design the SRS advice does not apply. */
  readonly design: "srs" | "stratified" | "two-stage";
  /** ν of the design interval (stratified K − H, two-stage m − 1); null under SRS. */
  readonly designDf: number | null;
  readonly diagnostics: Diagnostics;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The method-guide advice that fits the data, most important first; each line true of it. */
export function recommendMethod(input: AdviceInput): readonly Advice[] {
  const advice: Advice[] = [];
  const k = input.documents;
  const { sizes, rates } = input.diagnostics;
  const hasMicro = input.estimands.includes("micro");
  const srs = input.design === "srs";
  const value = input.binary ? "rate" : "mean";
  // With K = M, or every document at the same value, there is no sampling error to choose a
  // method for: the K and method advice would not be true of these data.
  const methodAdviceApplies = !input.census && !input.seZero;
  if (!methodAdviceApplies) {
    // The census or zero-error note below says what applies instead.
  } else if (!srs) {
    if (k < 20 || (input.designDf !== null && input.designDf < 10)) {
      advice.push({
        code: "few-documents",
        severity: "warning",
        message: `K = ${k} documents${input.designDf === null ? "" : `, design ν = ${input.designDf}`}: a design-based t interval with so few documents is approximate (in the article's two-stage revision, types drawn then documents, t covered ${percent(STUDY_COVERAGE["two-stage/t"])} of 95%); treat the nominal level as optimistic.`,
      });
    }
  } else if (k <= 5) {
    advice.push({
      code: "very-few-documents",
      severity: "warning",
      message: `K = ${k}: no interval here guarantees the nominal coverage; cr2 is the least bad choice (${percent(STUDY_COVERAGE["k5/micro-cr2"])} of 95% for micro at K = 5 in ${STUDY_CONDITIONS_K5}; bootstrap-t ${percent(STUDY_COVERAGE["k5/bootstrap-t"])}). Label more documents: see \`ragci plan\`.`,
    });
  } else if (k < 20) {
    advice.push({
      code: "few-documents",
      severity: "warning",
      message: `K = ${k} is below 20: even at K = 20 the recommended intervals covered only ${percent(STUDY_COVERAGE["macro-k20/t"])} (macro t) and ${percent(STUDY_COVERAGE["micro-unequal/cr2"])} (micro cr2) of 95% in ${STUDY_CONDITIONS}; with fewer documents treat the nominal level as optimistic.`,
    });
  }
  if (input.seZero) {
    advice.push({
      code: "zero-standard-error",
      severity: "warning",
      message: `Every document has the same ${value}, so the document-level standard error is 0 and no interval (logit included) can be formed from it. That is not certainty: another sample of documents would differ. Label more documents.`,
    });
  }
  if (methodAdviceApplies && srs && hasMicro && !sizes.equalSizes) {
    advice.push({
      code: "micro-unequal-sizes",
      severity: "note",
      message: `Document sizes differ (${sizes.quantiles[0]} to ${sizes.quantiles[4]} results): for micro use cr2 with its ν or bootstrap-t; not cr1 or wald-iid (coverage of 95% at K = 20: cr2 ${percent(STUDY_COVERAGE["micro-unequal/cr2"])}, bootstrap-t ${percent(STUDY_COVERAGE["micro-unequal/bootstrap-t"])}, cr1 ${percent(STUDY_COVERAGE["micro-unequal/cr1"])}, wald-iid ${percent(STUDY_COVERAGE["micro-unequal/wald-iid"])} in ${STUDY_CONDITIONS}).`,
    });
  }
  if (
    methodAdviceApplies &&
    srs &&
    hasMicro &&
    input.microDf !== null &&
    input.microDf < 0.5 * (k - 1)
  ) {
    advice.push({
      code: "df-far-below-k",
      severity: "note",
      message: `cr2 ν = ${input.microDf.toFixed(2)} is far below K − 1 = ${k - 1}: a few large documents carry the micro estimate, so it behaves like a sample of far fewer documents.`,
    });
  }
  if (hasMicro && !sizes.equalSizes && sizes.shareLargestDocument >= 0.5) {
    advice.push({
      code: "dominant-document",
      severity: "warning",
      message: `Document ${sizes.largestDocument} holds ${percent(sizes.shareLargestDocument)} of all results: the micro estimate is mostly that one document. Consider the macro estimand, or stratify the sample by size.`,
    });
  }
  if (input.binary && (rates.fractionZero > 0 || rates.fractionOne > 0)) {
    advice.push({
      code: "rates-at-bounds",
      severity: "note",
      message: `${percent(rates.fractionZero)} of documents have rate exactly 0 and ${percent(rates.fractionOne)} exactly 1.${input.logitAvailable ? " Near the bounds the logit interval keeps its limits inside [0, 1] (its coverage was not evaluated in the article's study)." : ""}`,
    });
  }
  if (input.intervalOutsideUnit) {
    advice.push({
      code: "interval-outside-unit",
      severity: "note",
      message: `A recommended interval reaches outside [0, 1]; it is shown unclipped, since clipping would hide how little the data say.${input.logitAvailable ? " The logit interval stays inside." : ""}`,
    });
  }
  if (input.census) {
    advice.push({
      code: "census",
      severity: "note",
      message:
        "K = M: every document of the population is in the sample, so the finite-population correction makes the sampling error 0.",
    });
  }
  advice.push({
    code: "outside-inference",
    severity: "note",
    message:
      "Outside the inference: the fixed index, the retriever and the population of questions; only the sampling of documents is accounted for.",
  });
  return advice;
}
