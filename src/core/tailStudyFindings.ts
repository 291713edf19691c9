/**
 * What ragci's study of sample statistics measured (bench/method-guide/tail-diagnostic.json,
 * tailDiagnostic.mjs: withheld.mjs's 1,000 SRS samples per cell, seed 1, no fpc), quoted by the
 * micro advice. A test checks each against the results file. Keys: census-kK/what.
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
} as const;

export const TAIL_STUDIES =
  "ragci's study of eleven sample statistics on the same samples; bench/method-guide/TAIL-DIAGNOSTIC.md";
