import { CHUNK_BOOTSTRAP_ROW_LIMIT } from "./bootstrap/chunkBootstrap.js";
import { CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS } from "./resamplingIntervals.js";

/**
 * B·K above which a default B is not run (about 10–30 s of document bootstrap): the bootstrap
 * intervals are then reported unavailable with the reason, until B is asked for.
 */
export const DEFAULT_MAX_RESAMPLING_DRAWS = 1e8;

/**
 * The resampling budget of an analysis (`maxResamplingDraws`, `chunkBootstrapMaxDraws` of
 * AnalyzeOptions): a B the caller asked for always runs, a default B only up to
 * DEFAULT_MAX_RESAMPLING_DRAWS document draws; the chunk bootstrap (a contrast) only up to
 * CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS unless it is asked for.
 *
 * @example resamplingBudget({ replicatesGiven: false, chunkBootstrap: false })
 *   // => { maxResamplingDraws: 1e8, chunkBootstrapMaxDraws: 2e6 }
 */
export function resamplingBudget(asked: {
  readonly replicatesGiven: boolean;
  readonly chunkBootstrap: boolean;
}): { readonly maxResamplingDraws: number | null; readonly chunkBootstrapMaxDraws: number | null } {
  return {
    maxResamplingDraws: asked.replicatesGiven ? null : DEFAULT_MAX_RESAMPLING_DRAWS,
    chunkBootstrapMaxDraws: asked.chunkBootstrap ? null : CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS,
  };
}

/**
 * Per-query values a reader keeps for the chunk bootstrap of a score (0/1 metrics need none):
 * up to CHUNK_BOOTSTRAP_ROW_LIMIT / B, past which that bootstrap is unavailable; none when B = 0.
 *
 * @example chunkBootstrapValuesToKeep(9999) // => 200020
 */
export function chunkBootstrapValuesToKeep(replicates: number): number {
  return replicates > 0 ? Math.floor(CHUNK_BOOTSTRAP_ROW_LIMIT / replicates) : 0;
}
