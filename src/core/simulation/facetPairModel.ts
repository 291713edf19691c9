import type { FacetComponent, FacetComponents } from "../facets/facetCells.js";
import {
  type LogitNormalPairFacetModel,
  logitPairDifferenceComponents,
  logitPairTruth,
} from "./facetPairLogitModel.js";

const COMPONENTS: readonly FacetComponent[] = [
  "document",
  "query",
  "judge",
  "documentJudge",
  "variant",
  "residual",
] as const;

/**
 * The generating model of a paired faceted evaluation, Gaussian on the metric's scale: for
 * system s ∈ {a, b}, y_s = μ_s + a_s,document + b_s,query + c_s,judge + e_s,document×judge
 * + f_s,variant + ε_s. Both systems answer the same documents and queries, graded by the same
 * judges with the same wordings, so each effect is a pair (u_a, u_b), bivariate normal with
 * each system's variance and a covariance: what the two systems share (a lenient judge lifts
 * both). The difference b − a then has the component V_a + V_b − 2C, the system-specific part
 * (a judge that favours b). The residual pair is one trial of each system in the same cell:
 * shared only when a cell has one trial (its noise is then the query × judge cell's); reruns of
 * the two systems are independent draws (differenceCells), covariance 0.
 */
export interface GaussianPairFacetModel {
  readonly kind: "paired-gaussian";
  readonly means: { readonly a: number; readonly b: number };
  readonly variances: { readonly a: FacetComponents; readonly b: FacetComponents };
  /**
   * Covariance of each effect's pair (a, b); absent = 0 (independent). The residual's applies
   * to each trial pair: give 0 with reruns, which differenceCells treats as independent.
   */
  readonly covariances: FacetComponents;
}

/** A paired generating model: Gaussian on the metric's scale, or logit-normal for 0/1. */
export type PairFacetModel = GaussianPairFacetModel | LogitNormalPairFacetModel;

/** The model's mean difference b − a over every population it draws from: μ_b − μ_a. */
export function facetPairModelTruth(model: PairFacetModel): number {
  if (model.kind === "paired-logit-normal") return logitPairTruth(model);
  return model.means.b - model.means.a;
}

/**
 * The components of b − a the model implies: V_a + V_b − 2C per effect and for the residual
 * (a cell of one trial of each; with reruns, differenceCells' residual is one rerun of b minus
 * one of a, the same V_a + V_b − 2C with C = 0).
 */
export function facetPairDifferenceComponents(model: PairFacetModel): FacetComponents {
  if (model.kind === "paired-logit-normal") return logitPairDifferenceComponents(model);
  const out: FacetComponents = {};
  for (const k of COMPONENTS) {
    const a = model.variances.a[k];
    const b = model.variances.b[k];
    if (a === undefined && b === undefined) continue;
    out[k] = Math.max(0, (a ?? 0) + (b ?? 0) - 2 * (model.covariances[k] ?? 0));
  }
  return out;
}

/**
 * The Gaussian pair model of a pilot: each system's REML mean and components, and per
 * component the covariance that gives the difference's REML component,
 * C = (V_a + V_b − V_Δ) / 2, clipped to [−√(V_a V_b), √(V_a V_b)] (a correlation within ±1)
 * where three separate fits disagree beyond what one bivariate model can hold; the clipped
 * components are returned, to be said in a note. μ_b = μ_a + the difference's REML mean, so
 * the truth is the pilot's paired estimate. `independentResidual`: the pilot has reruns, so
 * the residual pair is independent (covariance 0).
 */
export function gaussianPairModel(
  a: { readonly mean: number; readonly components: FacetComponents },
  b: { readonly components: FacetComponents },
  difference: { readonly mean: number; readonly components: FacetComponents },
  options: { readonly independentResidual: boolean },
): { readonly model: GaussianPairFacetModel; readonly clipped: readonly FacetComponent[] } {
  const covariances: FacetComponents = {};
  const clipped: FacetComponent[] = [];
  for (const k of COMPONENTS) {
    const va = a.components[k];
    const vb = b.components[k];
    if (va === undefined && vb === undefined) continue;
    if (k === "residual" && options.independentResidual) {
      covariances[k] = 0;
      continue;
    }
    const bound = Math.sqrt((va ?? 0) * (vb ?? 0));
    const wanted = ((va ?? 0) + (vb ?? 0) - (difference.components[k] ?? 0)) / 2;
    const c = Math.min(bound, Math.max(-bound, wanted));
    // A relative tolerance: REML's optimiser leaves ~1e-9 of slack at a perfect correlation.
    if (Math.abs(c - wanted) > 1e-6 * Math.max(bound, 1e-12)) clipped.push(k);
    covariances[k] = c;
  }
  return {
    model: {
      kind: "paired-gaussian",
      means: { a: a.mean, b: a.mean + difference.mean },
      variances: { a: { ...a.components }, b: { ...b.components } },
      covariances,
    },
    clipped,
  };
}
