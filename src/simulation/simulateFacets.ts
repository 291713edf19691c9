import { optionRef, RagciError } from "../core/errors.js";
import type { FacetCells } from "../core/facets/facetCells.js";
import {
  checkFacetStudy,
  type FacetRepetition,
  type FacetStudyResult,
  facetRepetition,
  summarizeFacetStudy,
} from "../core/simulation/facetCoverageStudy.js";
import type { FacetDesignSize } from "../core/simulation/facetEvaluation.js";
import {
  type FacetPairPilotStudy,
  facetPairPilotSetup,
  type PilotSystemCells,
} from "../core/simulation/facetPairPilotStudy.js";
import { facetPairRepetition } from "../core/simulation/facetPairStudy.js";
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

/** Lets the repetitions of each design run one at a time, yielding between them; Ctrl-C stops. */
async function runRepetitions(
  designs: readonly FacetDesignSize[],
  truth: number,
  repetition: (design: FacetDesignSize, i: number) => FacetRepetition,
  options: SimulateFacetsOptions,
): Promise<FacetStudyResult[]> {
  for (const design of designs) checkFacetStudy(design, options.reps, options.level);
  const studies: FacetStudyResult[] = [];
  for (const [s, design] of designs.entries()) {
    const repetitions: FacetRepetition[] = [];
    for (let i = 0; i < options.reps; i++) {
      await yieldToEvents();
      if (options.signal?.aborted)
        throw new RagciError(
          "interrupted",
          "interrupted: the study was stopped and nothing was written",
        );
      repetitions.push(repetition(design, i));
      options.onProgress?.(s, i + 1, options.reps);
    }
    studies.push(
      summarizeFacetStudy(repetitions, {
        design,
        seed: options.seed,
        level: options.level,
        truth,
      }),
    );
  }
  return studies;
}

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
  const studies = await runRepetitions(
    setup.designs,
    setup.truth,
    (design, i) =>
      facetRepetition(setup.model, design, {
        seed: options.seed,
        repetition: i,
        level: options.level,
      }),
    options,
  );
  return { ...setup, studies };
}

/**
 * facetPairPilotStudy with a way out, as simulateFacets: the same studies of the difference
 * b − a, one paired repetition at a time, yielding between them.
 */
export async function simulateFacetPair(
  a: PilotSystemCells,
  b: PilotSystemCells,
  options: SimulateFacetsOptions,
): Promise<FacetPairPilotStudy> {
  const setup = facetPairPilotSetup(a, b, options);
  const studies = await runRepetitions(
    setup.designs,
    setup.truth,
    (design, i) =>
      facetPairRepetition(setup.model, design, {
        seed: options.seed,
        repetition: i,
        level: options.level,
      }),
    options,
  );
  return { ...setup, studies };
}

/**
 * `ragci simulate --judge/--trial/--variant` on a pilot read with readSource (read "one", with
 * its facet cells): one system's study, or — two systems named — the study of their paired
 * difference b − a (FACET_STUDY_REPETITIONS unless `reps` is given), and its report.
 *
 * @throws RagciError for a pilot without one system's or both of a pair's facet cells
 */
export async function simulateFacetsOfPilot(
  pilot: OneOrPairRead,
  options: Omit<SimulateFacetsOptions, "reps"> & { readonly reps?: number | undefined },
  version: string,
): Promise<FacetSimulationReport> {
  const cells = pilot.cells ?? [];
  const reps = options.reps ?? FACET_STUDY_REPETITIONS;
  const census = describeCensus(pilot);
  if (pilot.pair !== null) {
    const { a, b } = pilot.pair;
    const find = (system: string) => cells.find((c) => c.system === system);
    const cellsA = find(a);
    const cellsB = find(b);
    if (!cellsA || !cellsB)
      throw new RagciError(
        "invalid-option",
        `a paired faceted study needs both systems' cells: ${a} and ${b} were not both read with ${optionRef("trial")}, ${optionRef("judge")} or ${optionRef("variant")}`,
        { option: "system" },
      );
    const study = await simulateFacetPair(
      { system: a, cells: cellsA.cells },
      { system: b, cells: cellsB.cells },
      { ...options, reps },
    );
    return { version, census, level: options.level, study, notes: study.notes };
  }
  const one = cells[0];
  if (cells.length !== 1 || one === undefined)
    throw new RagciError(
      "invalid-option",
      `a faceted study simulates one system's pilot or a pair's: give ${optionRef("system")} COL=ONE or COL=A,B`,
      { option: "system" },
    );
  const study = await simulateFacets(one.cells, { ...options, reps });
  return {
    version,
    census,
    level: options.level,
    study,
    notes: study.notes,
  };
}
