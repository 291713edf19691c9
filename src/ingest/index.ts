export { aggregatesCsv, sha256Aggregates } from "./hashInputs.js";
export { INPUT_FORMATS, type InputFormat, inputFormat } from "./inputFormat.js";
export { type ReadAggregatesOptions, readAggregates } from "./readAggregates.js";
export { type DesignSpec, readDesign } from "./readDesign.js";
export { readOneSystem, type SystemFilter } from "./readOneSystem.js";
export { readPairedAggregates } from "./readPairedAggregates.js";
export {
  type PairDifference,
  type PairedInput,
  type PairedTable,
  type ReadPairedOptions,
  readPairedResults,
} from "./readPairedResults.js";
export { type Pilot, type PilotInput, readPilot } from "./readPilot.js";
export {
  type MetricAggregates,
  type ReadResultsOptions,
  type ResultsTable,
  readResults,
} from "./readResults.js";
export { resolveColumn } from "./resolveColumns.js";
export { sha256File } from "./sha256File.js";
export { writeAggregates } from "./writeAggregates.js";
export { writeAtomicWith, writeFileAtomic } from "./writeAtomic.js";
