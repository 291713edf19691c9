import { checkReplicatesForLevel } from "./bootstrap/replicateLimit.js";
import { resamplingBudget } from "./resamplingBudget.js";
import type { Estimand } from "./types.js";

/** What an analysis or a comparison is asked for: level, estimand, bootstrap B and seed. */
export interface AnalysisRequest {
  readonly level: number;
  readonly estimand?: Estimand;
  readonly replicates: number;
  readonly seed: number;
  /** Whether B was asked for: a default B is skipped above the resampling budget, a given B never. */
  readonly replicatesExplicit?: boolean;
  /** Run the chunk bootstrap (a contrast) even above its budget. */
  readonly chunkBootstrap?: boolean;
}

/**
 * Refuses what no analysis of any data could honour, before the data are read: a B asked for
 * that is too few for the level's tails (a default B only says why its intervals are missing).
 *
 * @throws RagciError "invalid-option" for such a B
 */
export function checkAnalysisRequest(request: AnalysisRequest): void {
  if (request.replicatesExplicit === true)
    checkReplicatesForLevel(request.replicates, request.level);
}

/**
 * The request as analyze's options, with M and core's resampling budget (a default B is
 * skipped above its limit, a B asked for never).
 *
 * @throws RagciError "invalid-option" as checkAnalysisRequest
 */
export function analysisSettings(request: AnalysisRequest, population: number | null) {
  checkAnalysisRequest(request);
  return {
    level: request.level,
    population,
    estimand: request.estimand ?? null,
    replicates: request.replicates,
    seed: request.seed,
    ...resamplingBudget({
      replicatesGiven: request.replicatesExplicit ?? false,
      chunkBootstrap: request.chunkBootstrap ?? false,
    }),
  };
}
