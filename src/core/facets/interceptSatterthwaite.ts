import { gradient, hessian } from "../numeric/finiteDifferences.js";
import { symmetricEigen } from "../numeric/symmetricEigen.js";
import { remlDeviance, remlPieces } from "./remlCriterion.js";
import type { RemlFit } from "./remlFit.js";

/** lmerTest's eigenvalue cut: directions of the Hessian with λ ≤ 1e-8 are dropped. */
const EIGEN_TOLERANCE = 1e-8;

/**
 * Satterthwaite degrees of freedom of the intercept, as lmerTest computes them (Kuznetsova,
 * Brockhoff & Christensen 2017, JSS 82(13), eq. 6; lmerTest's as_lmerModLmerTest and
 * contest1D): with φ = (θ, σ) and v(φ) = σ²/R_X²(θ) = var(μ̂),
 *   ν = 2 v² / (∇vᵀ A ∇v),  A = 2 H⁺,
 * H the Hessian of the unprofiled REML deviance at φ̂ (pseudo-inverse over its eigenvalues
 * above 1e-8, as lmerTest does). Derivatives by central differences with a Richardson step
 * (lmerTest uses numDeriv's Richardson extrapolation).
 */
export function interceptSatterthwaite(fit: RemlFit): number {
  const { layout, centre } = fit;
  const k = layout.components.length;
  const phi = Float64Array.from([...fit.theta, fit.sigma]);
  const split = (x: Float64Array) => ({ theta: x.subarray(0, k), sigma: x[k] as number });
  const deviance = (x: Float64Array) => {
    const { theta, sigma } = split(x);
    return remlDeviance(layout, remlPieces(layout, theta, centre), sigma);
  };
  const variance = (x: Float64Array) => {
    const { theta, sigma } = split(x);
    return (sigma * sigma) / remlPieces(layout, theta, centre).rx2;
  };
  const p = k + 1;
  const h = hessian(deviance, phi);
  const g = gradient(variance, phi);
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
  const v = variance(phi);
  return (2 * v * v) / denominator;
}
