/**
 * ragci as a library. `analyze` takes per-document arrays or in-memory rows; the pure
 * estimators are also available one by one (and from "ragci/core"), as are plans
 * (`planSample`, `planSizeStratified`), size strata (`sizeStrataDesign`), comparisons of many
 * systems (`comparisonPairs`, then `compareMetric` per metric, or `compareSystems` and
 * `adjustComparisons`) and coverage studies (`runStudy` on worker threads, or
 * `runRepetitions` + `summarizeStudy`, or `studyAtSampleSize` on a census). Every source — files,
 * tools' outputs, stdin, a database — is read with `readSource` (or, for files alone,
 * `readResults` / `readAggregates` / `readPairedResults`); every report has a renderer.
 */
import { type DocumentStatsInput, documentStats } from "./core/aggregate/documentStats.js";
import { documentStatsFromRows, type RowsOptions } from "./core/aggregate/documentStatsFromRows.js";
import { type Analysis, type AnalyzeOptions, analyze as analyzeDocuments } from "./core/analyze.js";
import type { DocumentStats } from "./core/types.js";

export * from "./core/index.js";
export * from "./ingest/index.js";
export * from "./report/index.js";
export {
  analysisCensusStudies,
  type CensusStudyRun,
  type CensusStudySettings,
  differenceCensusStudies,
  studyAtSampleSize,
} from "./simulation/censusStudies.js";
export { type RunStudyOptions, runStudy } from "./simulation/runStudy.js";

function isDocumentStats(value: DocumentStats | DocumentStatsInput): value is DocumentStats {
  return value.n instanceof Float64Array && "binary" in value && "min" in value;
}

/**
 * Document-level analysis of one metric: micro and macro estimates, every interval of SPEC §3,
 * the diagnostics and the advice.
 *
 * @example analyze({ ids: ["a", "b", "c"], n: [2, 3, 5], s: [1, 3, 2] }).micro?.intervals.cr2
 * @example analyze(rows, { doc: "doc_id", metric: "hit", population: 1300 })
 */
export function analyze(
  input: DocumentStats | DocumentStatsInput,
  options?: AnalyzeOptions,
): Analysis;
export function analyze(
  rows: readonly Readonly<Record<string, unknown>>[],
  options: AnalyzeOptions & RowsOptions,
): Analysis;
export function analyze(
  input: DocumentStats | DocumentStatsInput | readonly Readonly<Record<string, unknown>>[],
  options: AnalyzeOptions & Partial<RowsOptions> = {},
): Analysis {
  if (Array.isArray(input)) {
    const { doc, metric } = options;
    if (!doc || !metric)
      throw new TypeError("analyze(rows, options) needs options.doc and options.metric");
    return analyzeDocuments(documentStatsFromRows(input, { doc, metric }), options);
  }
  const stats = input as DocumentStats | DocumentStatsInput;
  return analyzeDocuments(isDocumentStats(stats) ? stats : documentStats(stats), options);
}
