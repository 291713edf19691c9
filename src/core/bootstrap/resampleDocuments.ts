import { fillBoundedIntegers } from "../numeric/boundedIntegers.js";
import { createPcg64 } from "../numeric/pcg64.js";

/** Indices drawn per call, a whole number of rows (bounded memory whatever B is). */
const BLOCK_INDICES = 1 << 16;

/**
 * Streams the document draws of B bootstrap replicates, row b = replicate b, exactly as
 * numpy's `np.random.default_rng(seed).integers(0, K, (B, K))` (SeedSequence → PCG64 →
 * Lemire's bounded 32-bit integers). The stream is sequential: the rejection step makes the
 * number of raw draws per row vary, so rows cannot be computed out of order; any split of the
 * work must replay this one stream, which is why B replicates from seed S are the same
 * whatever the number of threads. `visit(row, b)` sees each row once, in order.
 */
export function forEachDocumentResample(
  seed: number,
  documents: number,
  replicates: number,
  visit: (row: Uint32Array, replicate: number) => void,
  spawnKey: readonly number[] = [],
): void {
  forEachResampleBlock(
    seed,
    documents,
    replicates,
    (block, rows, first) => {
      for (let r = 0; r < rows; r++)
        visit(block.subarray(r * documents, (r + 1) * documents), first + r);
    },
    spawnKey,
  );
}

/**
 * The same stream as `forEachDocumentResample`, handed out a block of whole rows at a time:
 * `visit(block, rows, first)` gets replicates first … first + rows − 1, row r at
 * block[r·K … r·K + K − 1] (for hot loops that should not allocate a view per replicate).
 */
export function forEachResampleBlock(
  seed: number,
  documents: number,
  replicates: number,
  visit: (block: Uint32Array, rows: number, first: number) => void,
  spawnKey: readonly number[] = [],
): void {
  // With a spawn key: the generator of SeedSequence(seed, spawn_key), as a study's
  // repetition i uses (i, 1) so that it can be replayed in numpy.
  const state = createPcg64(seed, spawnKey);
  const rowsPerBlock = Math.max(1, Math.min(replicates, Math.floor(BLOCK_INDICES / documents)));
  const block = new Uint32Array(rowsPerBlock * documents);
  for (let first = 0; first < replicates; first += rowsPerBlock) {
    const rows = Math.min(rowsPerBlock, replicates - first);
    const filled = rows === rowsPerBlock ? block : block.subarray(0, rows * documents);
    fillBoundedIntegers(state, documents, filled);
    visit(filled, rows, first);
  }
}
