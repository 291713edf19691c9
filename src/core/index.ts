/**
 * ragci's core: pure functions over per-document arrays, one concept per line. The building
 * blocks they use (the numpy-exact streams, exact sums, sample draws) are in
 * "ragci/core/internal".
 */
export { type DocumentStatsInput, documentStats } from "./aggregate/documentStats.js";
export { documentStatsFromRows, type RowsOptions } from "./aggregate/documentStatsFromRows.js";
export { mergeDocumentStats } from "./aggregate/mergeDocumentStats.js";
export {
  type Analysis,
  type AnalyzeOptions,
  analyze,
  type DesignSummary,
  type EstimandAnalysis,
  type MetricKind,
  validateLevel,
} from "./analyze.js";
export { bootstrapPercentile } from "./bootstrap/bootstrapPercentile.js";
export { type BootstrapTInput, bootstrapT } from "./bootstrap/bootstrapT.js";
export type { ChunkBootstrapReplicates } from "./bootstrap/chunkBootstrap.js";
export {
  type BootstrapOptions,
  type DocumentBootstrapReplicates,
  documentBootstrap,
} from "./bootstrap/documentBootstrap.js";
export {
  type Comparison,
  type ComparisonInput,
  compareSystems,
  type DifferenceTest,
  holmAdjust,
  indistinguishableGroups,
  type SystemInput,
} from "./compare.js";
export {
  type CompareMetricOptions,
  compareMetric,
  type MetricComparisons,
  type PairSums,
  type SystemSums,
} from "./compareMetric.js";
export {
  type ComparisonMode,
  comparisonPairs,
  type PairPolicy,
} from "./comparisonPairs.js";
export {
  ALLOCATION_RULES,
  type AllocationRule,
  allocate,
  type StratumForAllocation,
} from "./designs/allocation.js";
export type { DocumentDesign } from "./designs/applyDesign.js";
export { type DesignInterval, designInterval } from "./designs/designInterval.js";
export { drawStratifiedSample } from "./designs/drawStratifiedSample.js";
export { LONELY_PSU_RULES, type LonelyPsu } from "./designs/lonelyPsu.js";
export {
  type CensusStrataSummary,
  type CensusStratum,
  type EstimandStandardDeviations,
  type PredictedStandardErrors,
  predictedStandardErrors,
  predictedStandardErrorsOfSummary,
  type StratumSummary,
  stratumStandardDeviations,
  summarizeCensusStrata,
} from "./designs/predictedStandardErrors.js";
export { type SizeStratum, sizeStrata, sizeStrataWithTwoEach } from "./designs/sizeStrata.js";
export {
  type SizeStrataAllocation,
  type SizeStrataDesign,
  sizeStrataDesign,
} from "./designs/sizeStrataDesign.js";
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
export {
  isRagciError,
  type OptionName,
  optionRef,
  RagciError,
  type RagciErrorCode,
  type RagciErrorContext,
} from "./errors.js";
export { documentRates, macroEstimate } from "./estimands/macroEstimate.js";
export { microEstimate } from "./estimands/microEstimate.js";
export { type DifferenceCells, differenceCells } from "./facets/differenceCells.js";
export type { FacetCells, FacetComponent } from "./facets/facetCells.js";
export {
  documentCellSums,
  type FacetEstimate,
  type FacetInterval,
  type FacetIntervalOptions,
  facetInterval,
} from "./facets/facetInterval.js";
export {
  cheapestFacetPlan,
  type FacetCosts,
  type FacetDesign,
  type FacetPlan,
  type FacetPlanInput,
  facetDesignCost,
  facetPlanHalfWidth,
  narrowestFacetPlan,
} from "./facets/facetPlan.js";
export {
  type FacetLevels,
  type VarianceComponentEstimator,
  type VarianceComponents,
  varianceComponents,
} from "./facets/varianceComponents.js";
export {
  decideGate,
  type GateCheck,
  type GateDecision,
  type GateOptions,
  type GateRule,
  type GateVerdict,
} from "./gate.js";
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
  adjustablePValue,
  adjustComparisons,
  type MultipleComparisons,
} from "./multipleComparisons.js";
export { compensatedSum, compensatedSumOf } from "./numeric/compensatedSum.js";
export {
  expit,
  logit,
  normalQuantile,
  tQuantile,
  tTwoSidedPValue,
} from "./numeric/distributions.js";
export { quantileType7, sortedCopy } from "./numeric/quantileType7.js";
export {
  type PlanningStandardDeviations,
  pilotStandardDeviations,
} from "./planning/pilotStandardDeviations.js";
export { type PlanningInput, planningHalfWidth } from "./planning/planningHalfWidth.js";
export {
  type PlanPilot,
  type PlanStart,
  type PlanStartInput,
  planStartFromPilot,
  planStartFromSd,
} from "./planning/planStart.js";
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
  type EstimandPlan,
  type PlanSource,
  planSample,
  type SamplePlan,
  type SamplePlanInput,
} from "./planning/samplePlan.js";
export {
  planSizeStratified,
  planSizeStratifiedBeside,
  type SizeStratifiedPlan,
  type StratifiedAllocationPlan,
  type StratifiedEstimandPlan,
} from "./planning/sizeStratifiedPlan.js";
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
export {
  chunkBootstrapValuesToKeep,
  DEFAULT_MAX_RESAMPLING_DRAWS,
  resamplingBudget,
} from "./resamplingBudget.js";
export type { ResamplingPhase } from "./resamplingIntervals.js";
export { censusPopulation } from "./simulation/censusPopulation.js";
export {
  checkStudyOptions,
  joinRepetitions,
  type RepetitionResults,
  runRepetitions,
  STUDY_METHODS,
  type StudyMethod,
  type StudyOptions,
  studyMethods,
} from "./simulation/coverageStudy.js";
export { DEGENERATE_STUDY_ADVICE, refuseDegenerateStudy } from "./simulation/degenerateStudy.js";
export {
  COVERAGE_TOLERANCE,
  MC_MARGIN,
  monteCarloSe,
  reachingThreshold,
  recommendFromStudy,
  type StudyRecommendation,
} from "./simulation/recommendFromStudy.js";
export { type StudyStrata, sizeStudyStrata } from "./simulation/stratifiedSample.js";
export {
  censusTruth,
  type EstimatorScore,
  type MethodScore,
  type StudyResult,
  summarizeStudy,
} from "./simulation/studySummary.js";
export {
  checkTwoStagePopulation,
  expectedDocuments,
  type StudyUnits,
  studyUnits,
} from "./simulation/twoStageSample.js";
export type {
  AvailableInterval,
  DocumentStats,
  Estimand,
  Interval,
  ResamplingDetail,
  ResultValues,
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
