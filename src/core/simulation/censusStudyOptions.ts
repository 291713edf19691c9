import type { StudyOptions } from "./coverageStudy.js";

/** Repetitions of a --census study unless asked otherwise. */
export const CENSUS_STUDY_REPETITIONS = 1000;
/** Bootstrap replicates of a --census study at most: its coverages do not need more. */
export const CENSUS_STUDY_MAX_REPLICATES = 999;

/**
 * The study `analyze --census` and `compare --census` run: SRS of the sample's K documents,
 * the sample's level and seed, its B up to 999, and the fpc exactly when a population is known
 * (with a census it always is: censusPopulation).
 */
export function censusStudyOptions(input: {
  readonly documents: number;
  readonly repetitions?: number;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly population: number | null;
  readonly differences?: boolean;
}): StudyOptions {
  return {
    documents: input.documents,
    repetitions: input.repetitions ?? CENSUS_STUDY_REPETITIONS,
    replicates: Math.min(input.replicates, CENSUS_STUDY_MAX_REPLICATES),
    seed: input.seed,
    level: input.level,
    fpc: input.population !== null,
    differences: input.differences ?? false,
  };
}
