export { readResults, type ReadResultsOptions, type ResultsTable, type MetricAggregates } from "./readResults.js";
export { readAggregates, type ReadAggregatesOptions } from "./readAggregates.js";
export { inputFormat, INPUT_FORMATS, type InputFormat } from "./inputFormat.js";
export { resolveColumn } from "./resolveColumns.js";
export { sha256File, sha256Aggregates, aggregatesCsv } from "./hashInputs.js";
export { writeAggregates } from "./writeAggregates.js";
export { writeFileAtomic, writeAtomicWith } from "./writeAtomic.js";
