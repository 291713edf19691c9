export { type DocumentStatsInput, documentStats } from "./aggregate/documentStats.js";
export { documentStatsFromRows, type RowsOptions } from "./aggregate/documentStatsFromRows.js";
export { compareCodePoints, mergeDocumentStats } from "./aggregate/mergeDocumentStats.js";
export {
  type Analysis,
  type AnalyzeOptions,
  analyze,
  type EstimandAnalysis,
  type SrsDesignSummary,
  validateLevel,
} from "./analyze.js";
export { bootstrapPercentile } from "./bootstrap/bootstrapPercentile.js";
export { bootstrapT } from "./bootstrap/bootstrapT.js";
export {
  CHUNK_BOOTSTRAP_ROW_LIMIT,
  type ChunkBootstrapReplicates,
  chunkBootstrapBinary,
  chunkBootstrapRows,
  type ResultValues,
} from "./bootstrap/chunkBootstrap.js";
export {
  type BootstrapOptions,
  type DocumentBootstrapReplicates,
  documentBootstrap,
} from "./bootstrap/documentBootstrap.js";
export { forEachDocumentResample } from "./bootstrap/resampleDocuments.js";
export {
  type Comparison,
  type ComparisonInput,
  compareSystems,
  type DifferenceTest,
  holmAdjust,
  indistinguishableGroups,
  type SystemInput,
} from "./compare.js";
export { type AllocationRule, allocate, type StratumForAllocation } from "./designs/allocation.js";
export { type DesignInterval, designInterval } from "./designs/designInterval.js";
export { groupIndices } from "./designs/groupIndices.js";
export {
  type CensusStrataSummary,
  type CensusStratum,
  censusTerms,
  type PredictedStandardErrors,
  predictedStandardErrors,
  predictedStandardErrorsOfSummary,
  type StratumSummary,
  stratumStandardDeviations,
  summarizeCensusStrata,
} from "./designs/predictedStandardErrors.js";
export { type SizeStratum, sizeStrata } from "./designs/sizeStrata.js";
export { srsTotalVariance } from "./designs/srsTotalVariance.js";
export {
  type DesignEstimates,
  type StratifiedDesign,
  stratifiedEstimates,
} from "./designs/stratified.js";
export { type TwoStageDesign, twoStageEstimates } from "./designs/twoStage.js";
export { type Diagnostics, diagnose } from "./diagnostics/diagnose.js";
export { type IntraclassCorrelation, icc } from "./diagnostics/icc.js";
export { type DocumentInfluence, influence } from "./diagnostics/influence.js";
export { type DesignEffect, kishDeff } from "./diagnostics/kishDeff.js";
export { type RateDistribution, rateDistribution } from "./diagnostics/rateDistribution.js";
export {
  type FiveNumbers,
  fiveNumbers,
  type SizeDistribution,
  sizeDistribution,
} from "./diagnostics/sizeDistribution.js";
export { isRagciError, RagciError, type RagciErrorCode, type RagciErrorContext } from "./errors.js";
export { documentRates, macroEstimate } from "./estimands/macroEstimate.js";
export { microEstimate } from "./estimands/microEstimate.js";
export { logitInterval } from "./intervals/logitInterval.js";
export { criticalValue, tInterval } from "./intervals/tInterval.js";
export {
  ESTIMAND_QUESTION,
  FALLBACK_METHOD,
  METHODS,
  type MethodId,
  type MethodInfo,
  RECOMMENDED_METHOD,
  recommendedMethod,
} from "./methods.js";
export {
  documentResampleIndices,
  fillBoundedIntegers,
  nextBoundedInteger,
} from "./numeric/boundedIntegers.js";
export { choiceWithoutReplacement } from "./numeric/choiceWithoutReplacement.js";
export { compensatedSum, compensatedSumOf } from "./numeric/compensatedSum.js";
export {
  expit,
  logit,
  normalQuantile,
  tQuantile,
  tTwoSidedPValue,
} from "./numeric/distributions.js";
export { createPcg64, nextUint32, nextUint64Parts, type Pcg64State } from "./numeric/pcg64.js";
export { quantileType7, sortedCopy } from "./numeric/quantileType7.js";
export { seedSequenceEntropy, seedSequenceState } from "./numeric/seedSequence.js";
export { nextUniform, uniformSource } from "./numeric/uniform.js";
export {
  type PlanningStandardDeviations,
  pilotStandardDeviations,
} from "./planning/pilotStandardDeviations.js";
export { type PlanningInput, planningHalfWidth } from "./planning/planningHalfWidth.js";
export {
  halfWidthCurve,
  requiredDocuments,
  requiredDocumentsWithinLimit,
} from "./planning/requiredDocuments.js";
export {
  requiredDocumentsToDetect,
  requiredDocumentsToDetectWithinLimit,
} from "./planning/requiredDocumentsToDetect.js";
export {
  requiredStratifiedDocuments,
  type StratifiedHalfWidth,
  type StratifiedPlanInput,
  stratifiedHalfWidth,
} from "./planning/stratifiedPlan.js";
export {
  type Advice,
  type AdviceCode,
  recommendMethod,
  STUDY_COVERAGE,
} from "./recommendMethod.js";
export type {
  AvailableInterval,
  DocumentStats,
  Estimand,
  Interval,
  StandardError,
  UnavailableInterval,
} from "./types.js";
export { cr1 } from "./variance/cr1.js";
export { cr2 } from "./variance/cr2.js";
export { cr2DegreesOfFreedom } from "./variance/cr2DegreesOfFreedom.js";
export { finitePopulationCorrection } from "./variance/finitePopulationCorrection.js";
export { macroT } from "./variance/macroT.js";
export { type MicroResiduals, microResiduals } from "./variance/microResiduals.js";
export { waldIid } from "./variance/waldIid.js";
