/**
 * "ragci/core": the pure half of the library surface — per-document arrays in, estimates,
 * intervals, comparisons and plans out; no file, no database, no process. Every value here is
 * also exported by "ragci" under the same name. The surface is checked by api-extractor
 * (etc/ragci.api.md, `npm run api`; docs/library.md says how to add a name).
 *
 * The building blocks under these (numpy's streams, exact sums, the kernels) are not exported:
 * they are ragci's own modules, imported by path inside the repository.
 */
export { type DocumentStatsInput, documentStats } from "./aggregate/documentStats.js";
export { documentStatsFromRows, type RowsOptions } from "./aggregate/documentStatsFromRows.js";
export { mergeDocumentStats } from "./aggregate/mergeDocumentStats.js";
export type {
  Analysis,
  AnalyzeOptions,
  DesignSummary,
  EstimandAnalysis,
  MetricKind,
} from "./analyze.js";
export { analyze } from "./analyzeInput.js";
export { bootstrapPercentile } from "./bootstrap/bootstrapPercentile.js";
export { type BootstrapTInput, bootstrapT } from "./bootstrap/bootstrapT.js";
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
  type SystemInput,
} from "./compare.js";
export {
  type CompareMetricOptions,
  compareMetric,
  type MetricComparisons,
  type PairSums,
  type SystemSums,
} from "./compareMetric.js";
export { type ComparisonMode, comparisonPairs, type PairPolicy } from "./comparisonPairs.js";
export {
  type AllocationRule,
  allocate,
  type StratumForAllocation,
} from "./designs/allocation.js";
export type {
  DesignDetail,
  DesignGroupCounts,
  DocumentDesign,
} from "./designs/applyDesign.js";
export {
  type DesignEstimates,
  type DesignInterval,
  designInterval,
} from "./designs/designInterval.js";
export { drawStratifiedSample } from "./designs/drawStratifiedSample.js";
export type { LonelyPsu, LonelyPsuSummary, SingleDocumentTreatment } from "./designs/lonelyPsu.js";
export {
  type CensusStrataSummary,
  type CensusStratum,
  type EstimandStandardDeviations,
  type PredictedStandardErrors,
  predictedStandardErrors,
  type StratumSummary,
} from "./designs/predictedStandardErrors.js";
export type { SizeStratum } from "./designs/sizeStrata.js";
export {
  type SizeStrataAllocation,
  type SizeStrataDesign,
  sizeStrataDesign,
} from "./designs/sizeStrataDesign.js";
export { type StratifiedDesign, stratifiedEstimates } from "./designs/stratified.js";
export { type TwoStageDesign, twoStageEstimates } from "./designs/twoStage.js";
export type { Diagnostics } from "./diagnostics/diagnose.js";
export { type IntraclassCorrelation, icc } from "./diagnostics/icc.js";
export { type DocumentInfluence, influence } from "./diagnostics/influence.js";
export { type DesignEffect, kishDeff } from "./diagnostics/kishDeff.js";
export type { RateDistribution } from "./diagnostics/rateDistribution.js";
export type { FiveNumbers, SizeDistribution } from "./diagnostics/sizeDistribution.js";
export {
  type OptionName,
  RagciError,
  type RagciErrorCode,
  type RagciErrorContext,
} from "./errors.js";
export { macroEstimate } from "./estimands/macroEstimate.js";
export { microEstimate } from "./estimands/microEstimate.js";
export { type DifferenceCells, differenceCells } from "./facets/differenceCells.js";
export type { FacetCells, FacetComponent } from "./facets/facetCells.js";
export {
  type FacetEstimate,
  type FacetInterval,
  type FacetIntervalOptions,
  facetInterval,
} from "./facets/facetInterval.js";
export type { FacetDetectionPlan, FacetPairPlan } from "./facets/facetPairPlan.js";
export { type FacetPilotPlan, facetPilotPlan } from "./facets/facetPilotPlan.js";
export {
  cheapestFacetPlan,
  type FacetCosts,
  type FacetDesign,
  type FacetPlan,
  type FacetPlanInput,
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
export { tInterval } from "./intervals/tInterval.js";
export { METHODS, type MethodId, type MethodInfo } from "./methods.js";
export { adjustComparisons, type MultipleComparisons } from "./multipleComparisons.js";
export {
  type PlanningStandardDeviations,
  pilotStandardDeviations,
} from "./planning/pilotStandardDeviations.js";
export {
  type EstimandPlan,
  type PlanSource,
  planSample,
  type SamplePlan,
  type SamplePlanInput,
} from "./planning/samplePlan.js";
export {
  planSizeStratified,
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
  type AdviceInput,
  recommendMethod,
} from "./recommendMethod.js";
export type { ResamplingPhase } from "./resamplingIntervals.js";
export type {
  RepetitionResults,
  StudyMethod,
  StudyOptions,
} from "./simulation/coverageStudy.js";
export type {
  FacetIntervalScore,
  FacetStudyInterval,
  FacetStudyResult,
} from "./simulation/facetCoverageStudy.js";
export type { FacetDesignSize } from "./simulation/facetEvaluation.js";
export type {
  FacetModel,
  GaussianFacetModel,
  LogitNormalFacetModel,
} from "./simulation/facetModel.js";
export {
  type FacetPilotStudy,
  type FacetPilotStudyOptions,
  facetPilotStudy,
} from "./simulation/facetPilotStudy.js";
export type { StudyRecommendation } from "./simulation/recommendFromStudy.js";
export type { StudyStrata } from "./simulation/stratifiedSample.js";
export {
  type EstimatorScore,
  type MethodScore,
  type StudyResult,
  summarizeStudy,
} from "./simulation/studySummary.js";
export type { StudyUnits } from "./simulation/twoStageSample.js";
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
export { finitePopulationCorrection } from "./variance/finitePopulationCorrection.js";
export { macroT } from "./variance/macroT.js";
export { type MicroResiduals, microResiduals } from "./variance/microResiduals.js";
export { waldIid } from "./variance/waldIid.js";
