import { RagciError } from "../errors.js";
import type { FacetCells, FacetComponent } from "../facets/facetCells.js";
import type { VarianceComponents } from "../facets/varianceComponents.js";
import {
  type FacetStudyResult,
  facetCoverageStudy,
  facetStudiesAtDesigns,
} from "./facetCoverageStudy.js";
import type { FacetDesignSize } from "./facetEvaluation.js";
import {
  type FacetModel,
  facetModelComponents,
  facetModelFromPilot,
  facetModelTruth,
} from "./facetModel.js";
import { unreachedComponents, unreachedNote } from "./unreachedComponents.js";

/** What a faceted pilot's study simulates: the model, its truth, and the designs. */
export interface FacetPilotSetup {
  readonly model: FacetModel;
  /** The pilot's REML fit. */
  readonly pilot: VarianceComponents;
  /** The components the model implies on the metric's scale (facetModelComponents). */
  readonly modelComponents: Partial<Record<FacetComponent, number>>;
  readonly truth: number;
  /** The estimand, in words. */
  readonly estimand: string;
  /** One design per documents count asked for (default: the pilot's). */
  readonly designs: readonly FacetDesignSize[];
  readonly notes: readonly string[];
}

/** Repetitions of a faceted study when none are asked for (each fits REML once). */
export const FACET_STUDY_REPETITIONS = 200;

export interface FacetPilotStudyOptions {
  /** Documents per simulated evaluation, one study each (default: the pilot's count). */
  readonly documents?: readonly number[] | undefined;
  readonly reps: number;
  readonly seed: number;
  readonly level: number;
  /** The generating model (default: logit-normal for a 0/1 metric, else Gaussian). */
  readonly model?: FacetModel["kind"] | undefined;
}

/** A faceted pilot's coverage studies. */
export interface FacetPilotStudy extends FacetPilotSetup {
  readonly studies: readonly FacetStudyResult[];
}

/** The estimand in words: `mean` ("the mean", "the mean difference b − a") over the populations. */
export function describeEstimand(design: FacetDesignSize, mean = "the mean"): string {
  const crossed = [design.judges > 1 ? "judges" : null, design.variants > 1 ? "wordings" : null]
    .filter((x) => x !== null)
    .join(" and ");
  return crossed
    ? `${mean} over the populations of documents, queries, ${crossed} and reruns (the ${crossed} drawn afresh each repetition)`
    : `${mean} over the populations of documents, queries and reruns`;
}

/**
 * The model and designs of a study on a faceted pilot (facetModelFromPilot): the pilot's
 * balanced equivalent — its documents, queries per document (queries / documents, rounded),
 * reruns per cell (observations / cells, rounded), judges and wordings — at each documents
 * count asked for.
 *
 * @throws RagciError "invalid-value" when the pilot has no facet beyond documents and queries
 *   (one trial per cell, no judge or wording), or a judge or wording facet with one level
 */
export function facetPilotSetup(
  cells: FacetCells,
  options: Omit<FacetPilotStudyOptions, "reps" | "seed" | "level">,
): FacetPilotSetup {
  const levelsOf = (codes: Int32Array | null) => (codes ? new Set(codes).size : 0);
  for (const [facet, codes, labels] of [
    ["judge", cells.judge, cells.labels.judges],
    ["wording (variant)", cells.variant, cells.labels.variants],
  ] as const) {
    if (codes && levelsOf(codes) < 2)
      throw new RagciError(
        "invalid-value",
        `the pilot has one ${facet} (${labels?.[0] ?? "one level"}): a ${facet} facet needs at least two, so that its variance can be estimated and simulated`,
      );
  }
  let trials = 0;
  for (const n of cells.n) trials += n;
  const perCell = trials / cells.n.length;
  if (!cells.judge && !cells.variant && perCell === 1)
    throw new RagciError(
      "invalid-value",
      "the pilot has one trial per query and no judge or wording: no facet beyond documents and queries to simulate; without facets, simulate studies the documents of a census",
    );
  const { model, pilot } = facetModelFromPilot(cells, { kind: options.model });
  const { levels } = pilot;
  const queries = Math.max(1, Math.round(levels.queries / levels.documents));
  const reruns = Math.max(1, Math.round(levels.observations / levels.cells));
  const base: FacetDesignSize = {
    documents: levels.documents,
    queries,
    trials: reruns,
    judges: Math.max(1, levelsOf(cells.judge)),
    variants: Math.max(1, levelsOf(cells.variant)),
  };
  const notes: string[] = [];
  const balanced =
    levels.cells === base.documents * queries * base.judges * base.variants &&
    levels.observations === levels.cells * reruns;
  if (!balanced)
    notes.push(
      `the pilot is unbalanced (${levels.documents} documents, ${levels.queries} queries, ${levels.cells} cells, ${levels.observations} trials); each simulated evaluation is balanced: ${queries} queries per document, ${reruns} trial${reruns === 1 ? "" : "s"} per cell`,
    );
  const modelComponents = facetModelComponents(model);
  // The logistic curve may keep a component from the pilot's: said, with both values.
  if (model.kind === "logit-normal")
    for (const u of unreachedComponents(pilot.components, modelComponents, model))
      notes.push(unreachedNote(u));
  const designs = (options.documents ?? [base.documents]).map((documents) => ({
    ...base,
    documents,
  }));
  return {
    model,
    pilot,
    modelComponents,
    truth: facetModelTruth(model),
    estimand: describeEstimand(base),
    designs,
    notes,
  };
}

/**
 * Coverage of every faceted interval on evaluations like a pilot's (facetPilotSetup, then
 * facetCoverageStudy at each design): the library's `ragci simulate --judge/--trial/--variant`.
 *
 * @example // the facetInterval example's pilot (3 documents × 2 judges × 2 reruns, not 0/1, so
 *   // the Gaussian model with its REML components), evaluations of 10 documents, 50 repetitions
 *   facetPilotStudy({ document: Int32Array.of(0, 0, 1, 1, 2, 2), query: Int32Array.of(0, 0, 1, 1, 2, 2), judge: Int32Array.of(0, 1, 0, 1, 0, 1), variant: null, n: Float64Array.of(2, 2, 2, 2, 2, 2), sum: Float64Array.of(1.4, 0.8, 1.6, 1.6, 0.8, 0.4), withinSumOfSquares: Float64Array.of(0.02, 0, 0.02, 0, 0.02, 0.02), labels: { documents: ["a", "b", "c"], judges: ["j1", "j2"], variants: null } }, { reps: 50, seed: 1, level: 0.95, documents: [10] })
 *   // => { model: { kind: "gaussian", mean: 0.55 }, studies: [{ recommended: "population", intervals: { population: { coverage: 0.96 } } }] }
 */
export function facetPilotStudy(
  cells: FacetCells,
  options: FacetPilotStudyOptions & {
    readonly onProgress?: (study: number, done: number, total: number) => void;
  },
): FacetPilotStudy {
  const setup = facetPilotSetup(cells, options);
  const studies = facetStudiesAtDesigns(setup.model, setup.designs, options, facetCoverageStudy);
  return { ...setup, studies };
}
