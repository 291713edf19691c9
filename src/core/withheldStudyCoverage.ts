/**
 * What ragci's study of its withholding rule measured (bench/method-guide/withheld.json,
 * withheld.mjs; 1,000 SRS samples per cell, seed 1), quoted by the advice. A test checks each
 * against the results file, so the advice cannot drift from the study. Keys:
 * census-kK[-fpc]/what.
 */
export const WITHHELD_STUDY = {
  // logit-cv3 on the power-law census at K = 20 among the samples whose largest decile holds
  // ≥ POWER_LAW_DECILE_SHARE of the results, their share, and among the other samples.
  "pareto-k20/micro/concentrated-coverage": 0.9754,
  "pareto-k20/micro/concentrated-share": 0.122,
  "pareto-k20/micro/others-coverage": 0.7733,
  // logit-cv3 (micro, every sample: a single system's is never withheld) without the fpc: the
  // lowest over K = 10–50 on the power-law census, and over the held-out single-system censuses.
  "pareto-k10-50-lowest/micro/recommended-coverage": 0.759,
  "heldout-k10-50-lowest/micro/recommended-coverage": 0.898,
  // Paired t-differing (macro) among the samples where it is recommended (D ≥ 8), lowest over
  // the paired censuses at K = 20 and 50, without and with the fpc.
  "paired-k20-50-lowest/macro/recommended-coverage": 0.924,
  // The held-out paired census (heavy sizes, log-normal σ = 2.8, half the documents tied) at
  // K = 50 without the fpc, where a recommendation was made (95% of samples): micro cr2 falls
  // short, as micro does on heavy size tails; macro t-differing holds.
  "heldout-paired-k50/micro/recommended-coverage": 0.8556,
  "heldout-paired-k50/macro/recommended-coverage": 0.9694,
  // The real paired census held out (TAT-QA, TF-IDF − BM25, hit@5 and RR): lowest and highest
  // where a recommendation was made, over K = 10–50, without and with the fpc.
  "heldout-paired-tatqa-lowest/micro/recommended-coverage": 0.938,
  "heldout-paired-tatqa-highest/micro/recommended-coverage": 0.959,
  "heldout-paired-tatqa-lowest/macro/recommended-coverage": 0.942,
  "heldout-paired-tatqa-highest/macro/recommended-coverage": 0.9614,
} as const;

export type WithheldStudyKey = keyof typeof WITHHELD_STUDY;

export const WITHHELD_STUDIES =
  "ragci's study of the rule: 1,000 SRS samples per cell on 20 censuses, 9 of them held out; bench/method-guide/WITHHELD.md";
