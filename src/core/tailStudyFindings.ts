/**
 * What ragci's studies of the power-law tail measured, quoted by the micro advice: the study of
 * sample statistics (bench/method-guide/tail-diagnostic.json, tailDiagnostic.mjs) and the lower
 * bound on every interval from the sample alone (twin-bound.json, twinBound.mjs), both on
 * withheld.mjs's 1,000 SRS samples per cell, seed 1, no fpc. A test checks each against the
 * results file. Keys: census-kK/what.
 */
export const TAIL_STUDY = {
  // Of the samples in which micro logit-cv3 missed on the power-law census, the share that had
  // drawn none of its largest 1% of documents: the lowest over K = 10, 20 and 50.
  "pareto-k10-50-lowest/micro/misses-without-largest": 0.954,
  // The best warning rule on one sample statistic (a threshold or a band, chosen on the
  // censuses that were not held out, warning on at most a quarter of the samples of the cells
  // where logit-cv3 held): logit-cv3's lowest coverage among the samples it left unwarned.
  "trained-best-rule/micro/worst-unwarned-coverage": 0.8763,
  // That rule's largest budget: the share of the samples it may warn on where logit-cv3 held.
  "trained-best-rule/budget": 0.25,
  // The lower bound on every interval from the sample alone (twin-bound.json, twinBound.mjs): on
  // the power-law census at K = 50, for an interval that covered 92% there and on the smaller
  // censuses its samples cannot be told from, the width it reaches on this share of the samples
  // of one of them would have to be at least this many times the width logit-cv3 reaches on as
  // many, where logit-cv3 already covers 92% or more.
  "pareto-k50/micro/width-bound": 1.47,
  "pareto-k50/micro/width-bound-share": 0.606,
} as const;

export const TAIL_STUDIES =
  "ragci's study of eleven sample statistics on the same samples; bench/method-guide/TAIL-DIAGNOSTIC.md";

export const WIDTH_BOUND_STUDY =
  "ragci's lower bound on every interval computed from a sample alone; bench/method-guide/TWIN-BOUND.md";
