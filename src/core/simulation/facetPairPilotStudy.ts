import { RagciError } from "../errors.js";
import { differenceCells } from "../facets/differenceCells.js";
import { type FacetCells, type FacetComponents, facetComponentName } from "../facets/facetCells.js";
import { type VarianceComponents, varianceComponents } from "../facets/varianceComponents.js";
import { type FacetStudyResult, facetStudiesAtDesigns } from "./facetCoverageStudy.js";
import type { FacetDesignSize } from "./facetEvaluation.js";
import { binaryCells, type FacetModel, facetModelComponents } from "./facetModel.js";
import { logitNormalPairModel } from "./facetPairLogitModel.js";
import {
  facetPairDifferenceComponents,
  facetPairModelTruth,
  gaussianPairModel,
  type PairFacetModel,
} from "./facetPairModel.js";
import { facetPairCoverageStudy } from "./facetPairStudy.js";
import { describeEstimand, facetPilotSetup } from "./facetPilotStudy.js";
import { unreachedComponents, unreachedNote } from "./unreachedComponents.js";

/** One system of a paired pilot: its name and its cells. */
export interface PilotSystemCells {
  readonly system: string;
  readonly cells: FacetCells;
}

/** What a paired faceted pilot's study simulates: the model, its truth, and the designs. */
export interface FacetPairPilotSetup {
  /** The pair, and the cells of b and of a that had no partner (left out of the difference). */
  readonly pair: {
    readonly a: string;
    readonly b: string;
    readonly unmatched: { readonly a: number; readonly b: number };
  };
  readonly model: PairFacetModel;
  /** The REML fits of each system and of the paired difference b − a (differenceCells). */
  readonly pilots: {
    readonly a: VarianceComponents;
    readonly b: VarianceComponents;
    readonly difference: VarianceComponents;
  };
  /** The difference's components the model implies (facetPairDifferenceComponents). */
  readonly modelComponents: FacetComponents;
  /** The model's mean difference b − a: the pilot's paired REML mean. */
  readonly truth: number;
  readonly estimand: string;
  readonly designs: readonly FacetDesignSize[];
  readonly notes: readonly string[];
}

/** A paired faceted pilot's coverage studies. */
export interface FacetPairPilotStudy extends FacetPairPilotSetup {
  readonly studies: readonly FacetStudyResult[];
}

/**
 * The model and designs of a paired study on a faceted pilot of two systems: each system's REML
 * fit and the fit of their difference cells b − a (matched on document, query, judge and
 * wording, as compare pairs them), joined in a pair model whose difference components are the
 * difference's REML ones: for a 0/1 metric (both systems' trials 0 or 1) the paired logit-normal
 * model (logitNormalPairModel: each system calibrated as one system's logit-normal model, each
 * effect's correlation and the trial pairing calibrated to the difference), otherwise — or with
 * `model: "gaussian"` — the Gaussian pair model (gaussianPairModel). The designs are a's balanced
 * equivalent (facetPilotSetup) at each documents count asked for.
 *
 * @throws RagciError as facetPilotSetup for either system, and as differenceCells; "invalid-value"
 *   for the logit-normal model when a system's mean is 0 or 1
 */
export function facetPairPilotSetup(
  a: PilotSystemCells,
  b: PilotSystemCells,
  options: {
    readonly documents?: readonly number[] | undefined;
    /** The generating model (default: logit-normal for a 0/1 metric, else Gaussian). */
    readonly model?: FacetModel["kind"] | undefined;
  },
): FacetPairPilotSetup {
  const setupA = facetPilotSetup(a.cells, { documents: options.documents, model: "gaussian" });
  const setupB = facetPilotSetup(b.cells, { documents: options.documents, model: "gaussian" });
  const paired = differenceCells(b.cells, a.cells);
  const difference = varianceComponents(paired.cells);
  const base = setupA.designs[0] as FacetDesignSize;
  const binary = binaryCells(a.cells) && binaryCells(b.cells);
  const kind = options.model ?? (binary ? "logit-normal" : "gaussian");
  const meanB = setupA.pilot.mean + difference.mean;
  if (kind === "logit-normal" && !(meanB > 0 && meanB < 1))
    throw new RagciError(
      "invalid-value",
      `${b.system}'s mean is ${meanB}: a logit-normal model needs a 0/1 metric with some 0s and some 1s; simulate with the Gaussian model instead`,
    );
  const fits = [setupA.pilot, setupB.pilot, difference] as const;
  const independentResidual = { independentResidual: base.trials > 1 };
  const { model, clipped } =
    kind === "logit-normal"
      ? logitNormalPairModel(...fits, independentResidual)
      : gaussianPairModel(...fits, independentResidual);
  // A note both systems' setups make (an unbalanced pilot, usually) is said once.
  const notes = [
    ...setupA.notes.map((n) =>
      setupB.notes.includes(n) ? `${a.system} and ${b.system}: ${n}` : `${a.system}: ${n}`,
    ),
    ...setupB.notes.filter((n) => !setupA.notes.includes(n)).map((n) => `${b.system}: ${n}`),
  ];
  const { unmatched } = paired;
  if (unmatched.a + unmatched.b > 0)
    notes.push(
      `${unmatched.a} cells of ${b.system} and ${unmatched.b} of ${a.system} have no partner (document, query, judge, variant) and are left out of the difference's variance components`,
    );
  // Each system's own logit-normal model may not reach a component of its pilot (the logistic
  // curve's interaction): said per system, and named where a correlation is clipped.
  const unreached =
    model.kind === "paired-logit-normal"
      ? (
          [
            [a.system, model.a, setupA.pilot],
            [b.system, model.b, setupB.pilot],
          ] as const
        ).flatMap(([system, m, fit]) =>
          unreachedComponents(fit.components, facetModelComponents(m), m).map((u) => ({
            system,
            u,
          })),
        )
      : [];
  for (const { system, u } of unreached)
    notes.push(
      unreachedNote(u, {
        model: `${system}'s own logit-normal model`,
        pilot: `${system}'s REML`,
        consequence: `the pair model draws ${system}'s effects with the model's component, and the difference's components are calibrated given it`,
      }),
    );
  const floors = unreached
    .filter(({ u }) => clipped.includes(u.component))
    .map(
      ({ system, u }) =>
        `${system}'s own model cannot reach its pilot's ${facetComponentName(u.component)} component (see its note)`,
    );
  if (clipped.length > 0)
    notes.push(
      `the three fits (${a.system}, ${b.system}, their difference) disagree beyond what one pair of correlated effects can hold for ${clipped.join(", ")}: ${clipped.includes("residual") ? "the correlation (for the residual, the share of trial pairs drawn together)" : "the correlation"} was set to its limit there, so the model's difference component differs from the pilot's (see the components table)${floors.length > 0 ? `; ${floors.join("; ")}` : ""}`,
    );
  if (base.trials > 1)
    notes.push(
      "reruns of the two systems are independent draws: the residual pairs are uncorrelated, so the model's residual of the difference is what the systems' own trial noise gives",
    );
  if (binary && kind === "gaussian")
    notes.push(
      "0/1 metric simulated on the metric's scale (Gaussian), as asked: the pair model carries each system's components and the difference's mean and components (as far as the notes above allow), but its trials are not 0/1",
    );
  return {
    pair: { a: a.system, b: b.system, unmatched },
    model,
    pilots: { a: setupA.pilot, b: setupB.pilot, difference },
    modelComponents: facetPairDifferenceComponents(model),
    truth: facetPairModelTruth(model),
    estimand: describeEstimand(base, `the mean difference ${b.system} − ${a.system}`),
    designs: setupA.designs,
    notes,
  };
}

/**
 * Coverage of every interval of a pair's difference on paired evaluations like a pilot's
 * (facetPairPilotSetup, then facetPairCoverageStudy at each design): the library's
 * `ragci simulate --system COL=A,B --judge/--trial/--variant`.
 */
export function facetPairPilotStudy(
  a: PilotSystemCells,
  b: PilotSystemCells,
  options: {
    readonly documents?: readonly number[] | undefined;
    readonly model?: FacetModel["kind"] | undefined;
    readonly reps: number;
    readonly seed: number;
    readonly level: number;
    readonly onProgress?: (study: number, done: number, total: number) => void;
  },
): FacetPairPilotStudy {
  const setup = facetPairPilotSetup(a, b, options);
  const studies = facetStudiesAtDesigns(
    setup.model,
    setup.designs,
    options,
    facetPairCoverageStudy,
  );
  return { ...setup, studies };
}
