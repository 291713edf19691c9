import type { Diagnostics } from "./diagnostics/diagnose.js";
import { FEWEST_DIFFERING_DOCUMENTS } from "./diagnostics/differingDocuments.js";
import { optionRef } from "./errors.js";
import { levelPercent } from "./intervals/levelPercent.js";
import { DIFFERENCE_METHOD, FALLBACK_METHOD, RECOMMENDED_METHOD } from "./methods.js";
import {
  PAIRED_STUDIES,
  PAIRED_STUDY_COVERAGE,
  type PairedStudyKey,
  pairedStudyK,
} from "./pairedStudyCoverage.js";
import { percentText } from "./percentText.js";
import { POWER_LAW_DECILE_SHARE, type RecommendationWithheld } from "./recommendationWithheld.js";
import { TAIL_STUDIES, TAIL_STUDY, WIDTH_BOUND_STUDY } from "./tailStudyFindings.js";
import type { Estimand } from "./types.js";
import { WITHHELD_STUDIES, WITHHELD_STUDY } from "./withheldStudyCoverage.js";

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
  | "design-declared"
  | "power-law-sizes"
  | "census-study"
  | "bounded-interval-unavailable"
  | "few-differing-documents"
  | "paired-studies"
  | "studied-conditions"
  | "studied-level";

/** Every advice code, once (a key per code, so the compiler checks the list is complete). */
const ADVICE_CODE_KEYS: Readonly<Record<AdviceCode, true>> = {
  "very-few-documents": true,
  "few-documents": true,
  "micro-unequal-sizes": true,
  "df-far-below-k": true,
  "dominant-document": true,
  "rates-at-bounds": true,
  "interval-outside-unit": true,
  "zero-standard-error": true,
  census: true,
  "outside-inference": true,
  "design-declared": true,
  "power-law-sizes": true,
  "census-study": true,
  "bounded-interval-unavailable": true,
  "few-differing-documents": true,
  "paired-studies": true,
  "studied-conditions": true,
  "studied-level": true,
};

/** Every advice code ragci writes: the JSON's `advice[].code` (schemas/definitions.v2.json lists the same). */
export const ADVICE_CODES = Object.keys(ADVICE_CODE_KEYS) as readonly AdviceCode[];

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
} as const;

/**
 * Where the quoted coverages come from, said with each one: they hold for those conditions,
 * not for every K. docs/choosing-an-interval.md has the table.
 */
export const STUDY_CONDITIONS =
  "the article's study: SRS of K = 20 from a census of 1,300 documents with very unequal sizes; docs/choosing-an-interval.md";

/**
 * ragci's own coverage studies at K = 20 (bench/method-guide/results.json, 2000 repetitions,
 * B = 999): the evidence for recommending logit-cv3 and logit. A test checks these against
 * the results file, so the advice cannot drift from the study.
 */
export const RAGCI_STUDY_COVERAGE = {
  "synthetic/micro/logit-cv3": 0.972,
  "synthetic/micro/cr2": 0.888,
  "synthetic/micro/bootstrap-t": 0.905,
  "heavy/micro/logit-cv3": 0.939,
  "heavier/micro/logit-cv3": 0.925,
  "pareto/micro/logit-cv3": 0.791,
  "heavy/micro/cr2": 0.8075,
  "heavier/micro/cr2": 0.7245,
  "synthetic/micro/logit": 0.9405,
  "heavy/micro/logit": 0.89,
  "heavier/micro/logit": 0.8685,
  "synthetic/macro/logit": 0.94,
  "synthetic/macro/t": 0.905,
  // Lowest and highest over the five censuses (even to power-law sizes), at K = 5 and 10.
  "k5-lowest/micro/logit-cv3": 0.917,
  "k5-highest/micro/logit-cv3": 0.962,
  "k5-lowest/micro/cr2": 0.727,
  "k5-highest/micro/cr2": 0.882,
  "k5-lowest/macro/logit": 0.911,
  "k5-highest/macro/logit": 0.966,
  "k10-lowest/micro/logit-cv3": 0.904,
  "k10-lowest/macro/logit": 0.94,
} as const;

/**
 * The conditions of ragci's single-system studies (bench/method-guide: the bundled synthetic
 * census, even, heavy, heavier and power-law size tails, COVID-QA and TAT-QA hit@5 and RR of
 * BM25): the K drawn, and over the nine censuses the range of the share of results in the largest 10% of
 * documents and of the shares of documents at rate 0 and at rate 1. A test recomputes them
 * from the census files.
 */
export const STUDIED_CONDITIONS = {
  censuses: 9,
  k: [5, 50],
  shareLargestDecile: [0.1012, 0.8588],
  fractionZero: [0, 0.5738],
  fractionOne: [0.0008, 0.2396],
} as const;

/** Monte Carlo se of a quoted coverage (same studies, same keys), so that it is read with it. */
export const RAGCI_STUDY_MCSE = {
  "synthetic/micro/logit-cv3": 0.0037,
} as const;

/** Mean width over cr2's mean width at K = 20 (same studies): what a coverage costs. */
export const RAGCI_STUDY_WIDTH_OVER_CR2 = {
  "synthetic/micro/logit-cv3": 1.206,
  "synthetic/micro/logit": 0.978,
} as const;

const RAGCI_STUDIES =
  "ragci's studies: SRS of K = 20 of 1,300 documents, 2,000 repetitions, Monte Carlo se about 0.5 points; docs/choosing-an-interval.md";

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
  /** Per estimand reported: why the recommended bounded interval is not available, if it is not. */
  readonly boundedUnavailable: Readonly<Partial<Record<Estimand, string>>>;
  /** Whether some recommended interval reaches below 0 or above 1. */
  readonly intervalOutsideUnit: boolean;
  readonly census: boolean;
  /** The design in force; under a stratified or two-stage design the SRS advice does not apply. */
  readonly design: "srs" | "stratified" | "two-stage";
  /** ν of the design interval (stratified K − H, two-stage m − 1); null under SRS. */
  readonly designDf: number | null;
  readonly diagnostics: Diagnostics;
  /**
   * The values are paired differences b − a (compare): the K advice quotes the paired studies,
   * and the documents that differ (a non-zero summed difference) are counted.
   */
  readonly differences?: {
    readonly differingDocuments: number;
  };
  /** Per estimand, why no interval is recommended (withheldRecommendations), if none is. */
  readonly withheld?: Readonly<Partial<Record<Estimand, RecommendationWithheld>>>;
  /** The intervals' level (default 0.95, the level ragci's studies scored). */
  readonly level?: number;
}

/** The level of every interval ragci's coverage studies scored. */
const STUDIED_LEVEL = 0.95;

/**
 * The method-guide advice that fits the data, most important first; each line true of it.
 *
 * @example // what analyze passes for the four documents of the cr2 example (analyze(…).advice)
 *   recommendMethod({ documents: 4, estimands: ["micro", "macro"], microDf: 2.67, seZero: false, metricInUnitInterval: true, binary: true, logitAvailable: true, boundedUnavailable: {}, intervalOutsideUnit: false, census: false, design: "srs", designDf: null, diagnostics: analyze(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { replicates: 0 }).diagnostics }).map((a) => a.code)
 *   // => ["very-few-documents", "micro-unequal-sizes", "studied-conditions", "rates-at-bounds", "outside-inference"]
 */
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
        message: `K = ${k} documents${input.designDf === null ? "" : `, design ν = ${input.designDf}`}: a design-based t interval with so few documents is approximate (in the article's two-stage revision, types drawn then documents, t covered ${percentText(STUDY_COVERAGE["two-stage/t"])} of 95%); treat the nominal level as optimistic.`,
      });
    }
  } else if (input.differences) {
    advice.push(pairedStudiesAdvice(k));
  } else if (k <= 5) {
    advice.push({
      code: "very-few-documents",
      severity: "warning",
      message: `K = ${k}: no interval guarantees the nominal coverage with so few documents. At K = 5 ragci's studies found logit-cv3 (micro) at ${percentText(RAGCI_STUDY_COVERAGE["k5-lowest/micro/logit-cv3"])}–${percentText(RAGCI_STUDY_COVERAGE["k5-highest/micro/logit-cv3"])} of 95% and logit (macro) at ${percentText(RAGCI_STUDY_COVERAGE["k5-lowest/macro/logit"])}–${percentText(RAGCI_STUDY_COVERAGE["k5-highest/macro/logit"])} over censuses from even to power-law sizes, cr2 at ${percentText(RAGCI_STUDY_COVERAGE["k5-lowest/micro/cr2"])}–${percentText(RAGCI_STUDY_COVERAGE["k5-highest/micro/cr2"])} (the article's K = 5 study: cr2 ${percentText(STUDY_COVERAGE["k5/micro-cr2"])}, bootstrap-t ${percentText(STUDY_COVERAGE["k5/bootstrap-t"])}; docs/choosing-an-interval.md). Label more documents: see \`ragci plan\`.`,
    });
  } else if (k < 20) {
    advice.push({
      code: "few-documents",
      severity: "warning",
      message: `K = ${k} is below 20: at K = 10 ragci's studies found the recommended intervals at ≥ ${percentText(RAGCI_STUDY_COVERAGE["k10-lowest/micro/logit-cv3"])} (micro logit-cv3) and ≥ ${percentText(RAGCI_STUDY_COVERAGE["k10-lowest/macro/logit"])} (macro logit) of 95%, while cr2 and t fell far lower on skewed censuses (docs/choosing-an-interval.md); treat the nominal level as approximate, and check with ragci simulate on your census.`,
    });
  }
  const differing = input.differences?.differingDocuments;
  // Given whenever the recommendation is withheld for it, with every difference 0 included.
  if (
    differing !== undefined &&
    (input.withheld?.micro ?? input.withheld?.macro)?.code === "few-differing-documents"
  ) {
    advice.push({
      code: "few-differing-documents",
      severity: "warning",
      message: `No interval of the difference is recommended: only ${differing} of the ${k} documents differ between the two systems (the other ${k - differing} are ties): with fewer than ${FEWEST_DIFFERING_DOCUMENTS}, the sample says little about the documents where the systems disagree, and the intervals of the difference are not to be trusted. In ragci's paired studies the intervals missed more often in such samples than in samples with at least ${FEWEST_DIFFERING_DOCUMENTS}; at K = 10, where most samples had fewer, macro t-differing covered as little as ${percentText(PAIRED_STUDY_COVERAGE["k10-lowest/macro/t-differing"])} of 95% and micro cr2 ${percentText(PAIRED_STUDY_COVERAGE["k10-lowest/micro/cr2"])}, while among samples with at least ${FEWEST_DIFFERING_DOCUMENTS} macro t-differing covered ≥ ${percentText(PAIRED_STUDY_COVERAGE["enough-differ-lowest/macro/t-differing"])} and micro cr2 ≥ ${percentText(PAIRED_STUDY_COVERAGE["enough-differ-lowest/micro/cr2"])} (${PAIRED_STUDIES}); where ragci recommends one (at least ${FEWEST_DIFFERING_DOCUMENTS} differing), t-differing covered ≥ ${percentText(WITHHELD_STUDY["paired-k20-50-lowest/macro/recommended-coverage"])} at K = 20 and 50 (${WITHHELD_STUDIES}). The intervals are shown, marked not recommended. Label more documents, until at least ${FEWEST_DIFFERING_DOCUMENTS} differ (ragci plan).`,
    });
  }
  if (input.seZero) {
    advice.push({
      code: "zero-standard-error",
      severity: "warning",
      message: `Every document has the same ${value}, so the document-level standard error is 0: every interval built on it is the single point of the estimate, shown as it is, and the logit intervals cannot be formed. That point is no confidence interval and no certainty: another sample of documents would differ. Label more documents.`,
    });
  }
  if (
    methodAdviceApplies &&
    srs &&
    hasMicro &&
    !sizes.equalSizes &&
    input.boundedUnavailable.micro === undefined
  ) {
    advice.push({
      code: "micro-unequal-sizes",
      severity: "note",
      message: `Document sizes differ (${sizes.quantiles[0]} to ${sizes.quantiles[4]} results): the micro interval is logit-cv3 (leave-one-document-out variance on the logit scale), because it held where sizes are skewed and the others did not: at K = 20 it covered ${percentText(RAGCI_STUDY_COVERAGE["heavier/micro/logit-cv3"])}–${percentText(RAGCI_STUDY_COVERAGE["heavy/micro/logit-cv3"])} of 95% on censuses with heavy log-normal size tails, where cr2 covered ${percentText(RAGCI_STUDY_COVERAGE["heavier/micro/cr2"])}–${percentText(RAGCI_STUDY_COVERAGE["heavy/micro/cr2"])} and logit ${percentText(RAGCI_STUDY_COVERAGE["heavier/micro/logit"])}–${percentText(RAGCI_STUDY_COVERAGE["heavy/micro/logit"])}. It does not hold on every tail: on a power-law census it covered ${percentText(RAGCI_STUDY_COVERAGE["pareto/micro/logit-cv3"])} at K = 20 and as little as ${percentText(WITHHELD_STUDY["pareto-k10-50-lowest/micro/recommended-coverage"])} at K = 50, and ${percentText(WITHHELD_STUDY["heldout-k10-50-lowest/micro/recommended-coverage"])} on a power law held out to check it (${WITHHELD_STUDIES}). On the power-law census ${percentText(TAIL_STUDY["pareto-k10-50-lowest/micro/misses-without-largest"])} or more of the samples that missed had drawn none of its largest 1% of documents, and nothing in a sample told them apart: the best warning rule on one statistic of the sample (the spread or tail of its sizes, the jackknife-to-cr2 variance ratio, the influence of its largest document), allowed to warn on ${percentText(TAIL_STUDY["trained-best-rule/budget"])} of the samples where logit-cv3 held, left the samples it did not warn on covering only ${percentText(TAIL_STUDY["trained-best-rule/micro/worst-unwarned-coverage"])} on the worst of those censuses (${TAIL_STUDIES}). No other interval from a sample alone avoids this for less: at K = 50, for one that covered 92% there and on the censuses its samples cannot be told from, the width it reaches on ${percentText(TAIL_STUDY["pareto-k50/micro/width-bound-share"])} of the samples of one of them would have to be at least ${TAIL_STUDY["pareto-k50/micro/width-bound"].toFixed(2)}× the width logit-cv3 reaches on as many, where logit-cv3 already covers 92% or more (${WIDTH_BOUND_STUDY}). If your population may hold documents far larger than any drawn, stratify by size (ragci strata) or run a coverage study on a census (${optionRef("census")}). Its price is over-coverage where the tail is lighter: on the bundled synthetic census it covered ${percentText(RAGCI_STUDY_COVERAGE["synthetic/micro/logit-cv3"])} ± ${(100 * RAGCI_STUDY_MCSE["synthetic/micro/logit-cv3"]).toFixed(1)} at ${RAGCI_STUDY_WIDTH_OVER_CR2["synthetic/micro/logit-cv3"].toFixed(2)}× the width of cr2 (which covered ${percentText(RAGCI_STUDY_COVERAGE["synthetic/micro/cr2"])}), where logit reached ${percentText(RAGCI_STUDY_COVERAGE["synthetic/micro/logit"])} at ${RAGCI_STUDY_WIDTH_OVER_CR2["synthetic/micro/logit"].toFixed(2)}×; ${optionRef("census")} picks the narrower interval where your census supports it (${RAGCI_STUDIES}).`,
    });
  }
  if (
    methodAdviceApplies &&
    srs &&
    hasMicro &&
    !sizes.equalSizes &&
    sizes.shareLargestDecile >= POWER_LAW_DECILE_SHARE
  ) {
    advice.push({
      code: "power-law-sizes",
      severity: "warning",
      message: `The largest ${sizes.largestDecileDocuments} documents hold ${percentText(sizes.shareLargestDecile)} of all results: the micro estimate rests on a few documents. That alone does not make its interval miss: in ragci's studies the samples this concentrated (≥ ${percentText(POWER_LAW_DECILE_SHARE)}) were those where logit-cv3 covered best — on the power-law census at K = 20, ${percentText(WITHHELD_STUDY["pareto-k20/micro/concentrated-coverage"])} of 95% among them against ${percentText(WITHHELD_STUDY["pareto-k20/micro/others-coverage"])} among the other samples, which had drawn none of the largest documents and looked lighter (${WITHHELD_STUDIES}). What a sample cannot show is whether the population holds documents far larger than any drawn; if it may, stratify by size (ragci strata), report macro, or run a coverage study on a census (${optionRef("census")}).`,
    });
  }
  for (const estimand of input.estimands) {
    const reason = input.boundedUnavailable[estimand];
    if (reason === undefined || !methodAdviceApplies || !srs) continue;
    const bounded = RECOMMENDED_METHOD[estimand];
    // A difference's interval is compare's choice (cr2, macro t with ν = D − 1), not a fallback.
    advice.push({
      code: "bounded-interval-unavailable",
      severity: "note",
      message: input.differences
        ? `${estimand}: a paired difference is not a proportion, so ${bounded} (ragci's interval for metrics in [0, 1]) does not apply; ${DIFFERENCE_METHOD[estimand]} is the interval ragci's paired studies support for a difference.`
        : `${estimand}: ${bounded}, the interval ragci recommends for metrics in [0, 1], is not available here (${reason}); ${FALLBACK_METHOD[estimand]} is shown instead.`,
    });
  }
  if (methodAdviceApplies && srs && !input.differences && input.metricInUnitInterval) {
    advice.push(studiedConditionsAdvice(k, input.diagnostics));
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
      message: `Document ${sizes.largestDocument} holds ${percentText(sizes.shareLargestDocument)} of all results: the micro estimate is mostly that one document. Consider the macro estimand, or stratify the sample by size.`,
    });
  }
  if (input.binary && (rates.fractionZero > 0 || rates.fractionOne > 0)) {
    advice.push({
      code: "rates-at-bounds",
      severity: "note",
      message: `${percentText(rates.fractionZero)} of documents have rate exactly 0 and ${percentText(rates.fractionOne)} exactly 1.${input.logitAvailable ? " The logit intervals keep their limits inside [0, 1]." : ""}`,
    });
  }
  if (input.intervalOutsideUnit) {
    advice.push({
      code: "interval-outside-unit",
      severity: "note",
      message: `A recommended interval reaches outside [0, 1]; it is shown unclipped, since clipping would hide how little the data say.${input.logitAvailable ? " The logit interval stays inside." : ""}`,
    });
  }
  // Every coverage quoted above is of 95% intervals: at another level, say what it is not.
  const level = input.level ?? STUDIED_LEVEL;
  if (Math.abs(level - STUDIED_LEVEL) > 1e-12 && advice.some((a) => a.message.includes("of 95%")))
    advice.push({
      code: "studied-level",
      severity: "note",
      message: `The coverages quoted here are of 95% intervals, the level ragci's studies scored; these intervals are at ${levelPercent(level)}, whose coverage those studies did not measure (ragci simulate ${optionRef("level")} ${level} on a census measures it).`,
    });
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

/**
 * What ragci's paired studies measured for compare's recommended intervals (micro cr2, macro
 * t-differing) at the studied K nearest at or below the sample's (5, 10, 20, 50), with macro
 * t's (ν = K − 1) beside it: a warning below K = 20, a note from K = 20.
 */
function pairedStudiesAdvice(k: number): Advice {
  const at = pairedStudyK(k);
  const range = (method: string) =>
    `${percentText(PAIRED_STUDY_COVERAGE[`k${at}-lowest/${method}` as PairedStudyKey])}–${percentText(PAIRED_STUDY_COVERAGE[`k${at}-highest/${method}` as PairedStudyKey])}`;
  const where =
    k === at
      ? `at K = ${at}`
      : k < at
        ? `at K = ${at} (the smallest K studied)`
        : `at K = ${at} (the studied K nearest below yours)`;
  const measured = `${where} the recommended intervals of a paired difference covered ${range("micro/cr2")} of 95% (micro cr2) and ${range("macro/t-differing")} (macro t-differing: t with ν = D − 1, D the documents whose difference is not 0), where macro t with ν = K − 1 covered ${range("macro/t")} (${PAIRED_STUDIES}); on a paired census held out to check them, with heavier size tails, micro cr2 covered only ${percentText(WITHHELD_STUDY["heldout-paired-k50/micro/recommended-coverage"])} at K = 50 (macro t-differing ${percentText(WITHHELD_STUDY["heldout-paired-k50/macro/recommended-coverage"])}), and on a real one held out too (TAT-QA, TF-IDF − BM25) micro cr2 covered ${percentText(WITHHELD_STUDY["heldout-paired-tatqa-lowest/micro/recommended-coverage"])}–${percentText(WITHHELD_STUDY["heldout-paired-tatqa-highest/micro/recommended-coverage"])} and macro t-differing ${percentText(WITHHELD_STUDY["heldout-paired-tatqa-lowest/macro/recommended-coverage"])}–${percentText(WITHHELD_STUDY["heldout-paired-tatqa-highest/macro/recommended-coverage"])} at K = 10–50 (${WITHHELD_STUDIES})`;
  if (k >= 20) {
    return {
      code: "paired-studies",
      severity: "note",
      message: `K = ${k}: ${measured}. Coverage varies with the census, and a coverage study on a census of your paired results (${optionRef("census")}) is the check that applies.`,
    };
  }
  return {
    code: k <= 5 ? "very-few-documents" : "few-documents",
    severity: "warning",
    message: `K = ${k}${k <= 5 ? "" : " is below 20"}: ${measured}; treat the nominal level as optimistic, and label more documents: see \`ragci plan\`.`,
  };
}

/**
 * A sample without a census: which of ragci's studies speak for it, from the sample's own K,
 * size tail and documents at 0 and 1 set against the studied censuses' ranges.
 */
function studiedConditionsAdvice(k: number, diagnostics: Diagnostics): Advice {
  const c = STUDIED_CONDITIONS;
  const { sizes, rates } = diagnostics;
  const range = (r: readonly [number, number]) => `${percentText(r[0])}–${percentText(r[1])}`;
  const outside = (x: number, r: readonly [number, number]) => x < r[0] || x > r[1];
  const beyond = [
    ...(outside(sizes.shareLargestDecile, c.shareLargestDecile) ? ["its size tail"] : []),
    ...(outside(rates.fractionZero, c.fractionZero) ? ["its share at 0"] : []),
    ...(outside(rates.fractionOne, c.fractionOne) ? ["its share at 1"] : []),
  ];
  return {
    code: "studied-conditions",
    severity: "note",
    message: `No census was given, so the recommendation rests on ragci's studies: SRS of K = ${c.k[0]}–${c.k[1]} from ${c.censuses} censuses whose largest 10% of documents hold ${range(c.shareLargestDecile)} of the results, with ${range(c.fractionZero)} of documents at 0 and ${range(c.fractionOne)} at 1 (docs/choosing-an-interval.md). This sample, K = ${k}: its largest ${sizes.largestDecileDocuments} ${sizes.largestDecileDocuments === 1 ? "document holds" : "documents hold"} ${percentText(sizes.shareLargestDecile)} of the results, ${percentText(rates.fractionZero)} of documents are at 0 and ${percentText(rates.fractionOne)} at 1; ${beyond.length === 0 ? "all within the studied ranges, so those studies are the evidence that applies, though coverage varies within them (see the tables)" : `${beyond.join(", ")} ${beyond.length === 1 ? "lies" : "lie"} beyond the studied ranges, so no study here speaks for it directly`}${k > c.k[1] ? `; K = ${k} is above the largest K studied (${c.k[1]}), where the tables at K = ${c.k[1]} are the nearest evidence` : k < c.k[0] ? `; K = ${k} is below the smallest K studied (${c.k[0]})` : ""}. A coverage study on a census like yours (ragci simulate, or ${optionRef("census")}) is the check that applies.`,
  };
}
