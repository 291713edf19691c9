import { jacobian } from "../numeric/finiteDifferences.js";
import { symmetricEigen } from "../numeric/symmetricEigen.js";
import type { RemlFit } from "./remlFit.js";
import { remlPiecesAndGradient } from "./remlGradient.js";

/** A residual variance below this share of the total counts as none (no ν). */
const RESIDUAL_SHARE_FLOOR = 1e-12;

/** lmerTest's eigenvalue cut: directions of the Hessian with λ ≤ 1e-8 are dropped. */
const EIGEN_TOLERANCE = 1e-8;

/**
 * Steps of the θθ block's differences, in units of finiteDifferences' 1e-4 relative: 1.6e-3 and
 * 8e-4 of θ. At 10⁷ trials the gradient's rounding (≈ 1e-6 against terms of 1e5) makes the
 * 1e-4 steps' ν move in the third digit; from 16 to 64 it is stable to 1e-4 (bench/facets-fit.mjs
 * layout, 102,000 cells), and the Richardson step keeps the truncation at O(h⁴).
 */
const JACOBIAN_STEP = 16;

/**
 * Satterthwaite degrees of freedom of the intercept, as lmerTest computes them (Kuznetsova,
 * Brockhoff & Christensen 2017, JSS 82(13), eq. 6; lmerTest's as_lmerModLmerTest and
 * contest1D): with φ = (θ, σ) and v(φ) = σ²/R_X²(θ) = var(μ̂),
 *   ν = 2 v² / (∇vᵀ A ∇v),  A = 2 H⁺,
 * H the Hessian of the unprofiled REML deviance D(θ, σ) = log|Ã| + prss/σ² + (N − 1) log 2πσ²
 * at φ̂ (pseudo-inverse over its eigenvalues above 1e-8, as lmerTest does).
 *
 * lmerTest takes both by numDeriv (Richardson extrapolation); here, from remlGradient's exact
 * θ-derivatives: ∂v/∂θ = −σ² ∂R_X²/∂θ / R_X⁴, ∂v/∂σ = 2σ/R_X²; ∂²D/∂σ² = 6 prss/σ⁴ −
 * 2(N − 1)/σ², ∂²D/∂σ∂θ = −2 ∂prss/∂θ / σ³, and the θθ block as central differences of
 * ∂D/∂θ = ∂log|Ã|/∂θ + ∂prss/∂θ / σ² with one Richardson step (JACOBIAN_STEP).
 * Null when ν is not defined: no residual variance (σ̂ = 0, or σ̂² below 1e-12 of the total
 * variance), or a fit that leaves the Cholesky factors of the criterion numerically singular.
 */
export function interceptSatterthwaite(fit: RemlFit): number | null {
  // A fit with no residual variance (σ̂ = 0, e.g. identical judges and no reruns: the cells are
  // exact sums of their document's and query's effects) has no finite Hessian in σ, and its θ̂
  // runs off to where the Schur complement is no longer numerically positive definite: ν is
  // not defined there.
  if (!(fit.sigma > 0)) return null;
  // Numerically none: σ̂² / (σ̂² + Σ σ̂_k²) = 1 / (1 + Σ θ̂_k²) below RESIDUAL_SHARE_FLOOR, where
  // θ̂ stopped on its way out (the criterion flat to rounding) and ν would be a number of that.
  let total = 1;
  for (const t of fit.theta) total += t * t;
  if (1 / total < RESIDUAL_SHARE_FLOOR) return null;
  try {
    const df = satterthwaite(fit);
    return Number.isFinite(df) && df > 0 ? df : null;
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("choleskyInverse:")) return null;
    throw error;
  }
}

function satterthwaite(fit: RemlFit): number {
  const { layout, centre, sigma, workspace } = fit;
  const k = layout.components.length;
  const p = k + 1;
  const s2 = sigma * sigma;
  const dfResidual = layout.observations - 1;
  const theta = Float64Array.from(fit.theta);
  const at = remlPiecesAndGradient(layout, theta, centre, workspace);
  const { pieces, gradient } = at;
  const devianceTheta = (x: Float64Array) => {
    const { gradient: d } = remlPiecesAndGradient(layout, x, centre, workspace);
    return d.logDet.map((v, i) => v + (d.prss[i] as number) / s2);
  };
  const hThetaTheta = jacobian(devianceTheta, theta, k, JACOBIAN_STEP);
  const h = new Float64Array(p * p);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++)
      h[i * p + j] = ((hThetaTheta[i * k + j] as number) + (hThetaTheta[j * k + i] as number)) / 2;
    const mixed = (-2 * (gradient.prss[i] as number)) / (s2 * sigma);
    h[i * p + k] = mixed;
    h[k * p + i] = mixed;
  }
  h[k * p + k] = (6 * pieces.prss) / (s2 * s2) - (2 * dfResidual) / s2;
  const rx4 = pieces.rx2 * pieces.rx2;
  const g = new Float64Array(p);
  for (let i = 0; i < k; i++) g[i] = (-s2 * (gradient.rx2[i] as number)) / rx4;
  g[k] = (2 * sigma) / pieces.rx2;
  const { values, vectors } = symmetricEigen(h, p);
  // ∇vᵀ A ∇v = 2 Σ_e (v_eᵀ ∇v)² / λ_e over λ_e > tolerance.
  let denominator = 0;
  for (let e = 0; e < p; e++) {
    const lambda = values[e] as number;
    if (!(lambda > EIGEN_TOLERANCE)) continue;
    let proj = 0;
    for (let i = 0; i < p; i++) proj += (vectors[i * p + e] as number) * (g[i] as number);
    denominator += (2 * proj * proj) / lambda;
  }
  const v = s2 / pieces.rx2;
  return (2 * v * v) / denominator;
}
