import { newtonMinimize } from "../numeric/newtonMinimize.js";
import { documentSubsample } from "./documentSubsample.js";
import type { FacetCells } from "./facetCells.js";
import { type FacetLayout, facetLayout } from "./facetLayout.js";
import { cellMeanCentre, profiledReml, type RemlPieces, remlPieces } from "./remlCriterion.js";
import { profiledRemlGradient, RemlGradientWorkspace, remlGradientAt } from "./remlGradient.js";

/** A REML fit on facet cells: the layout, the optimum θ̂, σ̂ and the pieces there. */
export interface RemlFit {
  readonly layout: FacetLayout;
  readonly centre: number;
  /** Relative standard deviations θ̂_k = σ̂_k / σ̂ (≥ 0), in layout.components order. */
  readonly theta: Float64Array;
  readonly sigma: number;
  readonly pieces: RemlPieces;
  /** lme4's REML criterion at the optimum (comparable with lme4's REMLcrit()). */
  readonly criterion: number;
  /** Buffers for further evaluations at this layout (interceptSatterthwaite's). */
  readonly workspace: RemlGradientWorkspace;
  /** Where the θ search started and what it cost (criterion values and gradients). */
  readonly search: {
    readonly start: "one" | "subsample";
    readonly values: number;
    readonly gradients: number;
  };
}

/** Cells above which the θ search starts from a fit on a subsample of the documents. */
const WARM_START_CELLS = 20_000;
/** Documents the subsample keeps at least (fewer would estimate θ_document poorly). */
const WARM_START_DOCUMENTS = 50;

/**
 * Where the θ search starts: θ = 1, as lme4 does; on more than WARM_START_CELLS cells, at θ̂
 * of a systematic subsample of whole documents holding about half that many cells — a
 * consistent estimate of the same θ, so the full search (each evaluation over all the data:
 * its query patterns, up to one per query) needs about half the evaluations. Components the subsample fits at (nearly) 0 start
 * at 0.01: the criterion is even in each θ_k, so 0 is stationary and the search could not
 * leave it. Falls back to θ = 1 when the subsample does not identify the same components.
 */
function searchStart(layout: FacetLayout, warm: boolean): { start: number[]; warm: boolean } {
  const ones = layout.components.map(() => 1);
  if (!warm || layout.cellCount <= WARM_START_CELLS) return { start: ones, warm: false };
  const step = Math.ceil(layout.cellCount / (WARM_START_CELLS / 2));
  if (Math.ceil(layout.documents / step) < WARM_START_DOCUMENTS)
    return { start: ones, warm: false };
  // A start needs no more than a few digits: the subsample's search stops at 1e-4.
  const first = remlFit(documentSubsample(layout, step), { tolerance: 1e-4 });
  const same =
    first.layout.components.length === layout.components.length &&
    first.layout.components.every((k, i) => k === layout.components[i]);
  if (!same) return { start: ones, warm: false };
  return { start: Array.from(first.theta, (t) => Math.max(t, 0.01)), warm: true };
}

/**
 * REML on the cell sufficient statistics: minimises lme4's profiled REML criterion over θ.
 * The criterion is even in each θ_k (it depends on θ_k²), so the search runs over all of ℝ^k
 * and |θ| is the constrained optimum; a component whose θ comes out near 0 is set to exactly 0
 * when that does not raise the criterion by more than 1e-9 (the boundary fit lme4 reports).
 * Starts at θ = 1, as lme4 does, or on many cells from a subsample's fit (searchStart;
 * `warmStart: false` keeps θ = 1, for the tests that compare the two).
 */
export function remlFit(
  cells: FacetCells,
  options: { readonly warmStart?: boolean; readonly tolerance?: number } = {},
): RemlFit {
  const layout = facetLayout(cells);
  const { start, warm } = searchStart(layout, options.warmStart ?? true);
  const centre = cellMeanCentre(layout);
  const k = layout.components.length;
  const workspace = new RemlGradientWorkspace(layout);
  const criterion = (theta: ArrayLike<number>) =>
    profiledReml(layout, remlPieces(layout, theta, centre, workspace.base));
  // The value in one pass over the cells; the exact gradient (remlGradient) in one more, from
  // what that pass left in the workspace, only where the line search accepts a step.
  let last: { readonly theta: Float64Array; readonly pieces: RemlPieces } | null = null;
  const evaluate = (theta: Float64Array) => {
    last = {
      theta: Float64Array.from(theta),
      pieces: remlPieces(layout, theta, centre, workspace.base),
    };
    return last;
  };
  const best = newtonMinimize(
    {
      value: (theta) => profiledReml(layout, evaluate(theta).pieces),
      gradient: (theta) => {
        const at = last?.theta.every((v, i) => v === theta[i]) ? last : evaluate(theta);
        try {
          const gradient = remlGradientAt(layout, theta, centre, workspace, at.pieces);
          return profiledRemlGradient(layout, at.pieces, gradient);
        } catch (error) {
          // Where θ has run off (no residual variance left) the crossed effects' Schur
          // complement is numerically singular and has no inverse: the search stops there (a
          // zero gradient), and the fit is the degenerate one the intervals then recognise.
          if (error instanceof Error && error.message.startsWith("choleskyInverse:"))
            return new Float64Array(k);
          throw error;
        }
      },
    },
    start,
    options.tolerance,
  );
  const theta = best.x.map(Math.abs);
  let value = best.value;
  for (let i = 0; i < k; i++) {
    if ((theta[i] as number) > 1e-3) continue;
    const trial = Float64Array.from(theta);
    trial[i] = 0;
    const v = criterion(trial);
    if (v <= value + 1e-9) {
      theta[i] = 0;
      value = Math.min(v, value);
    }
  }
  const pieces = remlPieces(layout, theta, centre, workspace.base);
  const sigma = Math.sqrt(pieces.prss / (layout.observations - 1));
  return {
    layout,
    centre,
    theta,
    sigma,
    pieces,
    criterion: profiledReml(layout, pieces),
    workspace,
    search: { start: warm ? "subsample" : "one", ...best.evaluations },
  };
}
