import { optionRef, RagciError } from "../core/errors.js";
import type { FacetCells } from "../core/facets/facetCells.js";
import {
  checkFacetStudy,
  type FacetRepetition,
  facetRepetition,
  summarizeFacetStudy,
} from "../core/simulation/facetCoverageStudy.js";
import {
  FACET_STUDY_REPETITIONS,
  type FacetPilotStudy,
  type FacetPilotStudyOptions,
  facetPilotSetup,
} from "../core/simulation/facetPilotStudy.js";
import type { OneOrPairRead } from "../ingest/index.js";
import type { FacetSimulationReport } from "../report/simulationFacetsReport.js";
import { describeCensus } from "./simulateCensus.js";

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

/**
 * `ragci simulate --judge/--trial/--variant` on a pilot read with readSource (read "one", with
 * its facet cells): one system's study (FACET_STUDY_REPETITIONS unless `reps` is given) and its
 * report.
 *
 * @throws RagciError for a pair, or a pilot without one system's facet cells
 */
export async function simulateFacetsOfPilot(
  pilot: OneOrPairRead,
  options: Omit<SimulateFacetsOptions, "reps"> & { readonly reps?: number | undefined },
  version: string,
): Promise<FacetSimulationReport> {
  const cells = pilot.cells ?? [];
  const one = cells[0];
  if (pilot.pair !== null || cells.length !== 1 || one === undefined)
    throw new RagciError(
      "invalid-option",
      `a faceted study simulates one system's pilot: give ${optionRef("system")} COL=ONE (paired faceted studies are not supported yet)`,
      { option: "system" },
    );
  const study = await simulateFacets(one.cells, {
    ...options,
    reps: options.reps ?? FACET_STUDY_REPETITIONS,
  });
  return {
    version,
    census: describeCensus(pilot),
    level: options.level,
    study,
    notes: study.notes,
  };
}
