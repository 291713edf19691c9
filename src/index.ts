/**
 * ragci as a library: one verb per command and the estimators a statistician calls.
 *
 * - analyze: `analyze` (per-document arrays or in-memory rows);
 * - compare: `compareSystems` for two systems, or `comparisonPairs`, `compareMetric` per metric
 *   and `adjustComparisons` for many;
 * - plan: `planSample` (S from `pilotStandardDeviations`), `planSizeStratified`;
 * - strata: `sizeStrataDesign`, then `drawStratifiedSample`;
 * - simulate: `runStudy` on worker threads, or `studyAtSampleSize` on a census;
 *   `summarizeStudy`; with facets (judges, reruns, wordings), `facetPilotStudy`;
 * - gate: `decideGate`; aggregate and merge: `writeAggregates`, `mergeDocumentStats`;
 * - reading: every source (files, tools' outputs, stdin, a database) with `readSource`, the one
 *   entry; `readDesign` for a design file; `analyzeSource` / `compareSource` /
 *   `simulateSource` do what the analyze, compare and simulate commands do, from a source to a
 *   report;
 * - reports: `terminalReport`, `markdownReport` and `reportJson` render analyze's, compare's,
 *   plan's, strata's and simulate's reports as the commands write them.
 *
 * The pure part (no file, no database) is also "ragci/core". This list is the whole surface;
 * etc/ragci.api.md is its report, checked by `npm run api:check` (docs/library.md: adding a name).
 */
export * from "./core/index.js";
export type { StudyPlanOptions, StudySampling } from "./core/simulation/studyPlan.js";
export type { AggregatedOption } from "./ingest/identity.js";
export type { InputDescription } from "./ingest/inputDescription.js";
export type { InputFormat } from "./ingest/inputFormat.js";
export type { ReadAggregatesOptions } from "./ingest/readAggregates.js";
export { type DesignSpec, readDesign } from "./ingest/readDesign.js";
export type { PairsRead } from "./ingest/readFilePairs.js";
export type { TableRead } from "./ingest/readFileTables.js";
export type { OneOrPairOptions, OneOrPairRead } from "./ingest/readOneOrPair.js";
export type {
  PairDifference,
  PairedInput,
  PairedTable,
  ReadPairedOptions,
} from "./ingest/readPairedResults.js";
export type {
  DocumentRanges,
  MetricAggregates,
  ReadingPass,
  ReadResultsOptions,
  ResultsTable,
} from "./ingest/readResults.js";
export { type ReadShape, readSource } from "./ingest/readSource.js";
export type { Selection, SystemSelection } from "./ingest/selection.js";
export type { Shard } from "./ingest/shardOverlap.js";
export type {
  DatabaseSource,
  FilesSource,
  ReadOptions,
  ReadProgress,
  Source,
} from "./ingest/source.js";
export type { Environment } from "./ingest/sql/databaseUrl.js";
export type { Summation } from "./ingest/summation.js";
export { writeAggregates } from "./ingest/writeAggregates.js";
export type { AnalysisEntry, AnalysisReport } from "./report/analysisReport.js";
export type { ComparisonReport, MetricComparisons } from "./report/comparisonReport.js";
export type { PlanReport } from "./report/planReport.js";
export {
  markdownReport,
  type RagciReport,
  reportJson,
  terminalReport,
} from "./report/reportRenderings.js";
export type { FacetSimulationReport } from "./report/simulationFacetsReport.js";
export type { SimulationReport } from "./report/simulationReport.js";
export type { StrataReport } from "./report/strataReport.js";
export type { SummationKind } from "./report/summationNote.js";
export type { TerminalOptions } from "./report/terminal.js";
export {
  type AnalyzeSourceOptions,
  analyzeSource,
  type SourceRunIo,
} from "./simulation/analyzeSource.js";
export {
  type CensusStudyRun,
  type CensusStudySettings,
  studyAtSampleSize,
} from "./simulation/censusStudies.js";
export { type CompareSourceOptions, compareSource } from "./simulation/compareSource.js";
export { type RunStudyOptions, runStudy } from "./simulation/runStudy.js";
export type { StudyColumnSettings } from "./simulation/runStudyColumns.js";
export {
  type SimulateSourceOptions,
  type SimulateSourceRun,
  simulateSource,
} from "./simulation/simulateSource.js";
