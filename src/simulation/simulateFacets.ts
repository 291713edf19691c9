import { RagciError } from "../core/errors.js";
import type { FacetCells } from "../core/facets/facetCells.js";
import {
  checkFacetStudy,
  type FacetRepetition,
  facetRepetition,
  summarizeFacetStudy,
} from "../core/simulation/facetCoverageStudy.js";
import {
  type FacetPilotStudy,
  type FacetPilotStudyOptions,
  facetPilotSetup,
} from "../core/simulation/facetPilotStudy.js";

export interface SimulateFacetsOptions extends FacetPilotStudyOptions {
  /** Stops the study between repetitions (Ctrl-C): throws RagciError "interrupted". */
  readonly signal?: AbortSignal | undefined;
  /** After each repetition: the study's index, repetitions done and their total. */
  readonly onProgress?: ((study: number, done: number, total: number) => void) | undefined;
}

/** Lets pending events (progress, Ctrl-C) be handled between repetitions. */
const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * facetPilotStudy with a way out: the same studies (same seed, same numbers), one repetition
 * at a time on this thread, yielding between them so that progress is drawn and Ctrl-C stops
 * the run. A repetition fits REML to one evaluation (tens to hundreds of milliseconds).
 */
export async function simulateFacets(
  cells: FacetCells,
  options: SimulateFacetsOptions,
): Promise<FacetPilotStudy> {
  const setup = facetPilotSetup(cells, options);
  for (const design of setup.designs) checkFacetStudy(design, options.reps, options.level);
  const studies = [];
  for (const [s, design] of setup.designs.entries()) {
    const repetitions: FacetRepetition[] = [];
    for (let i = 0; i < options.reps; i++) {
      await yieldToEvents();
      if (options.signal?.aborted)
        throw new RagciError(
          "interrupted",
          "interrupted: the study was stopped and nothing was written",
        );
      repetitions.push(
        facetRepetition(setup.model, design, {
          seed: options.seed,
          repetition: i,
          level: options.level,
        }),
      );
      options.onProgress?.(s, i + 1, options.reps);
    }
    studies.push(
      summarizeFacetStudy(repetitions, {
        design,
        seed: options.seed,
        level: options.level,
        truth: setup.truth,
      }),
    );
  }
  return { ...setup, studies };
}
