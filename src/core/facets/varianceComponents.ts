import type { FacetCells, FacetComponent } from "./facetCells.js";
import { remlFit } from "./remlFit.js";

/** How the components were estimated. */
export type VarianceComponentEstimator = "reml";

/** Levels of each facet the fit saw. */
export interface FacetLevels {
  readonly documents: number;
  readonly queries: number;
  readonly judges: number;
  readonly variants: number;
  readonly cells: number;
  /** Trials (observations: cells plus within-cell degrees of freedom). */
  readonly observations: number;
}

/**
 * Variance components of a faceted evaluation, lme4's REML fit of
 * y ~ 1 + (1|document) + (1|document:query) + (1|judge) + (1|document:judge) + (1|variant),
 * residual = trial (rerun) noise.
 */
export interface VarianceComponents {
  readonly estimator: VarianceComponentEstimator;
  /** Variances; a facet the input lacks (or that the data cannot identify) is left out. */
  readonly components: Partial<Record<FacetComponent, number>>;
  /** Components estimated at 0 (REML on the boundary). */
  readonly boundary: readonly FacetComponent[];
  /** The intercept: the GLS grand mean at the REML components. */
  readonly mean: number;
  /** Its model-based standard error, σ̂/R_X (lme4's vcov). */
  readonly meanSe: number;
  /** lme4's REML criterion at the optimum (REMLcrit). */
  readonly remlCriterion: number;
  readonly levels: FacetLevels;
}

/**
 * REML variance components from facet cells (see remlFit and remlCriterion for the method):
 * equal to lme4's lmer(..., REML = TRUE) on the trial rows, balanced or not, up to the
 * optimiser's tolerance (both minimise the same criterion).
 *
 * @throws RagciError "invalid-value" on inconsistent cells; "too-few-documents" below two
 * @example
 *   // three documents (one query each) graded by two judges, twice: a 0.6 0.8 | 0.4 0.4, b 0.7 0.9 |
 *   // 0.8 0.8, c 0.5 0.3 | 0.1 0.3 (judge j1 | j2)
 *   // lme4: lmer(y ~ 1 + (1|doc) + (1|judge) + (1|doc:judge), REML = TRUE) on the 12 trials
 *   varianceComponents({ document: Int32Array.of(0, 0, 1, 1, 2, 2), query: Int32Array.of(0, 0, 1, 1, 2, 2), judge: Int32Array.of(0, 1, 0, 1, 0, 1), variant: null, n: Float64Array.of(2, 2, 2, 2, 2, 2), sum: Float64Array.of(1.4, 0.8, 1.6, 1.6, 0.8, 0.4), withinSumOfSquares: Float64Array.of(0.02, 0, 0.02, 0, 0.02, 0.02), labels: { documents: ["a", "b", "c"], judges: ["j1", "j2"], variants: null } })
 *   // => { components: { document: 0.05667, judge: 0.01000, documentJudge: 0.00500, residual: 0.01333 }, boundary: [], mean: 0.55000, meanSe: 0.16073, remlCriterion: -4.9766 }
 */
export function varianceComponents(cells: FacetCells): VarianceComponents {
  return componentsOfFit(remlFit(cells));
}

/** The public summary of a REML fit. */
export function componentsOfFit(fit: ReturnType<typeof remlFit>): VarianceComponents {
  const components: Partial<Record<FacetComponent, number>> = {};
  const boundary: FacetComponent[] = [];
  const s2 = fit.sigma * fit.sigma;
  fit.layout.components.forEach((k, i) => {
    const v = (fit.theta[i] as number) ** 2 * s2;
    components[k] = v;
    if (v === 0) boundary.push(k);
  });
  components.residual = s2;
  return {
    estimator: "reml",
    components,
    boundary,
    mean: fit.pieces.mean,
    meanSe: fit.sigma / Math.sqrt(fit.pieces.rx2),
    remlCriterion: fit.criterion,
    levels: {
      documents: fit.layout.documents,
      queries: fit.layout.queries,
      judges: fit.layout.judges,
      variants: fit.layout.variants,
      cells: fit.layout.cellCount,
      observations: fit.layout.observations,
    },
  };
}
