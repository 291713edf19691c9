/**
 * The building blocks under ragci's estimators, for the tests and bench/ (dist/core/internal.js):
 * numpy's PCG64, SeedSequence, bounded integers and choice without replacement, exact sums and
 * orderings. Not published (package.json "exports" has "." and "./core" only).
 */
export { compareCodePoints } from "./aggregate/mergeDocumentStats.js";
export {
  CHUNK_BOOTSTRAP_ROW_LIMIT,
  type ChunkBootstrapReplicates,
  chunkBootstrapBinary,
  chunkBootstrapBinaryJs,
  chunkBootstrapRows,
  chunkBootstrapRowsJs,
} from "./bootstrap/chunkBootstrap.js";
export { forEachDocumentResample } from "./bootstrap/resampleDocuments.js";
export { groupIndices } from "./designs/groupIndices.js";
export { censusTerms } from "./designs/predictedStandardErrors.js";
export {
  documentResampleIndices,
  fillBoundedIntegers,
  nextBoundedInteger,
} from "./numeric/boundedIntegers.js";
export { choiceWithoutReplacement } from "./numeric/choiceWithoutReplacement.js";
export { createPcg64, nextUint32, nextUint64Parts, type Pcg64State } from "./numeric/pcg64.js";
export { seedSequenceEntropy, seedSequenceState } from "./numeric/seedSequence.js";
export { nextUniform, uniformSource } from "./numeric/uniform.js";
