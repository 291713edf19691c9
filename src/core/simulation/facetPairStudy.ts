import { differenceCells } from "../facets/differenceCells.js";
import { facetInterval } from "../facets/facetInterval.js";
import { uniformSource } from "../numeric/uniform.js";
import {
  type FacetRepetition,
  type FacetStudyOptions,
  type FacetStudyResult,
  repetitionOfInterval,
  runFacetStudy,
} from "./facetCoverageStudy.js";
import type { FacetDesignSize } from "./facetEvaluation.js";
import { facetPairEvaluation } from "./facetPairEvaluation.js";
import { facetPairModelTruth, type PairFacetModel } from "./facetPairModel.js";

/**
 * Repetition i of a paired study: one paired evaluation drawn from the model with the uniforms
 * of `Generator(PCG64(SeedSequence(seed, spawn_key=(i, 3)))).random()` (facetPairEvaluation's
 * order; normals by Box–Muller), its difference cells b − a (differenceCells, as compare pairs
 * them), and every interval of facetInterval on them — the intervals compare shows for the
 * difference. Repetitions are independent streams, so any one can be replayed alone.
 */
export function facetPairRepetition(
  model: PairFacetModel,
  design: FacetDesignSize,
  options: { readonly seed: number; readonly repetition: number; readonly level: number },
): FacetRepetition {
  const pair = facetPairEvaluation(
    model,
    design,
    uniformSource(options.seed, [options.repetition, 3]),
  );
  const { cells } = differenceCells(pair.b, pair.a);
  return repetitionOfInterval(facetInterval(cells, { level: options.level }));
}

/**
 * Coverage of every faceted interval of the paired difference b − a (the recommended population
 * interval, its REML and spread parts, and the document-only interval for these judges) over
 * `reps` paired evaluations drawn from the model at a balanced design. The truth is the model's
 * mean difference over its populations of documents, queries, judges, wordings and reruns
 * (μ_b − μ_a), with judges and wordings drawn afresh each repetition. Deterministic for a seed.
 *
 * @throws RagciError "invalid-option" for a design or size that is not whole numbers, or a level
 *   outside (0, 1)
 */
export function facetPairCoverageStudy(
  model: PairFacetModel,
  design: FacetDesignSize,
  options: FacetStudyOptions,
): FacetStudyResult {
  return runFacetStudy(design, options, facetPairModelTruth(model), (i) =>
    facetPairRepetition(model, design, {
      seed: options.seed,
      repetition: i,
      level: options.level,
    }),
  );
}
