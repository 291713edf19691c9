/** What the chunk bootstrap takes and returns (its JS form and its WebAssembly kernel alike). */

export interface ChunkBootstrapReplicates {
  readonly replicates: number;
  readonly seed: number;
  readonly micro: Float64Array;
  readonly macro: Float64Array;
}

export interface ChunkBootstrapOptions {
  /** B, the number of replicates. */
  readonly replicates: number;
  readonly seed: number;
  /** Called now and then with the fraction done; for a progress bar. */
  readonly onProgress?: ((fraction: number) => void) | undefined;
  /** numpy SeedSequence spawn key of the stream (default none: default_rng(seed)). */
  readonly spawnKey?: readonly number[];
}
