/**
 * ingest's one door for the CLI (test/architecture.test.ts: src/cli imports ingest only from
 * here). Not published: "ragci" (src/index.ts) exports the readers users call by their modules,
 * so what the CLI needs from ingest (output guards, shard checks, SQL for `ragci sql`…) stays
 * out of the library surface.
 */

export {
  AGGREGATE_COLUMNS,
  isAggregateColumn,
  refuseAggregateNamedLabel,
} from "./aggregateColumns.js";
export { cellsOfSystem } from "./cellsOfSystem.js";
export { checkSource, type SourceChoice } from "./checkSource.js";
export { csvText } from "./csvText.js";
export { type DeclaredDesign, type DesignOptions, declaredDesign } from "./declaredDesign.js";
export { namedEvalFormat } from "./evalFormats/readEvalContent.js";
export { type FacetRequest, hasFacets } from "./facetRequest.js";
export { aggregatesCsv, sha256Aggregates } from "./hashInputs.js";
export type { InputDescription } from "./inputDescription.js";
export { INPUT_FORMATS, type InputFormat, inputFormat } from "./inputFormat.js";
export { loadDuringScan } from "./loadDuringScan.js";
export { mergeShards, type Shard } from "./mergeShards.js";
export { type NamedOutput, refuseUnsafeOutputs } from "./outputSafety.js";
export { QUERY_CHECK_ROW_LIMIT } from "./queryIdCheck.js";
export { type ReadAggregatesOptions, readAggregates } from "./readAggregates.js";
export { type DesignSpec, readDesign } from "./readDesign.js";
export type { SystemFacetCells } from "./readFacetCells.js";
export type { PairsRead } from "./readFilePairs.js";
export type { TableRead } from "./readFileTables.js";
export type { OneOrPairOptions, OneOrPairRead } from "./readOneOrPair.js";
export {
  differenceName,
  pairedAggregateGroups,
  readPairedAggregates,
} from "./readPairedAggregates.js";
export {
  type PairDifference,
  type PairedInput,
  type PairedTable,
  type ReadPairedOptions,
  readPairedResults,
} from "./readPairedResults.js";
export { type PerDocumentTable, readPerDocumentTable } from "./readPerDocumentTable.js";
export { readPlanStart } from "./readPlanStart.js";
export {
  type DocumentRanges,
  type MetricAggregates,
  type ReadingPass,
  type ReadResultsOptions,
  type ResultsTable,
  readResults,
} from "./readResults.js";
export { type ReadShape, readSource } from "./readSource.js";
export { resolveColumn } from "./resolveColumns.js";
export { firstScanStarted } from "./scanGate.js";
export {
  parseSystemSelection,
  type Selection,
  type SystemSelection,
} from "./selection.js";
export { sha256File } from "./sha256File.js";
export { checkShardKinds } from "./shardKinds.js";
export {
  type DatabaseSource,
  type FilesSource,
  isDatabaseSource,
  type ReadOptions,
  type ReadProgress,
  type Source,
} from "./source.js";
export { parseDatabaseUrl, urlForms, WAREHOUSES } from "./sql/databaseUrl.js";
export { DIALECTS, dialect } from "./sql/dialects.js";
export { perDocumentSql } from "./sql/perDocumentSql.js";
export {
  type PerDocumentStatementOptions,
  perDocumentStatement,
} from "./sql/perDocumentStatement.js";
export type { SqlSource } from "./sql/sourceRowsSql.js";
export { checkAggregatesFileName, writeAggregates } from "./writeAggregates.js";
export { writeAtomicWith, writeFileAtomic } from "./writeAtomic.js";
