import { symmetricEigen } from "./symmetricEigen.js";

/** Inverse of a symmetric matrix with its eigenvalues made positive (|λ|, floored). */
function positiveInverse(h: Float64Array, p: number): Float64Array {
  const { values, vectors } = symmetricEigen(h, p);
  let largest = 0;
  for (const v of values) largest = Math.max(largest, Math.abs(v));
  const floor = Math.max(largest * 1e-10, 1e-12);
  const inverse = new Float64Array(p * p);
  for (let e = 0; e < p; e++) {
    const w = 1 / Math.max(Math.abs(values[e] as number), floor);
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++)
        inverse[i * p + j] =
          (inverse[i * p + j] as number) +
          w * (vectors[i * p + e] as number) * (vectors[j * p + e] as number);
  }
  return inverse;
}

/** A function to minimise and its exact gradient. */
export interface Objective {
  value(x: Float64Array): number;
  /** ∇f(x); called right after value(x) at the same x, so it may reuse that evaluation's work. */
  gradient(x: Float64Array): Float64Array;
}

/**
 * The Hessian as forward differences of the exact gradient (steps 1e-4 relative, absolute near
 * 0), symmetrised: p gradient evaluations, error O(h) in the starting curvature only (the
 * gradient that steers the search stays exact, and BFGS corrects the curvature as it goes).
 */
function gradientDifferenceHessian(f: Objective, x: Float64Array, gx: Float64Array): Float64Array {
  const p = x.length;
  const h = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    const xi = x[i] as number;
    const step = Math.abs(xi) > 1e-4 ? 1e-4 * Math.abs(xi) : 1e-4;
    const up = Float64Array.from(x);
    up[i] = xi + step;
    f.value(up);
    const gUp = f.gradient(up);
    for (let j = 0; j < p; j++) h[i * p + j] = ((gUp[j] as number) - (gx[j] as number)) / step;
  }
  for (let i = 0; i < p; i++)
    for (let j = 0; j < i; j++) {
      const v = ((h[i * p + j] as number) + (h[j * p + i] as number)) / 2;
      h[i * p + j] = v;
      h[j * p + i] = v;
    }
  return h;
}

/**
 * Minimises a smooth function of a few variables given its exact gradient: quasi-Newton (BFGS
 * on the inverse Hessian, Nocedal & Wright 2006 §6.1) started from the Hessian by differences
 * of the gradient with its eigenvalues made positive (Gill, Murray & Wright 1981 §4.4), and a
 * backtracking line search (Armijo) whose first trial moves no coordinate by more than
 * max(1, |x_i|); the Hessian is recomputed when a step fails. Stops when a
 * step changes no coordinate by more than `tolerance` (relative to max(1, |x|)), or when the
 * decrease the step predicts is below the rounding of f.
 */
export function newtonMinimize(
  f: Objective,
  start: ArrayLike<number>,
  tolerance = 1e-10,
): {
  readonly x: Float64Array;
  readonly value: number;
  readonly iterations: number;
  /** Values and gradients computed (a rejected line-search trial costs a value only). */
  readonly evaluations: { readonly values: number; readonly gradients: number };
} {
  const p = start.length;
  const evaluations = { values: 0, gradients: 0 };
  const counted: Objective = {
    value: (x) => {
      evaluations.values++;
      return f.value(x);
    },
    gradient: (x) => {
      evaluations.gradients++;
      return f.gradient(x);
    },
  };
  let x: Float64Array = Float64Array.from(start);
  let current = { value: counted.value(x), gradient: counted.gradient(x) };
  let inverse = positiveInverse(gradientDifferenceHessian(counted, x, current.gradient), p);
  let refreshed = true;
  const done = (iterations: number) => ({ x, value: current.value, iterations, evaluations });
  for (let iteration = 1; iteration <= 500; iteration++) {
    const g = current.gradient;
    const direction = new Float64Array(p);
    let slope = 0;
    for (let i = 0; i < p; i++) {
      let di = 0;
      for (let j = 0; j < p; j++) di -= (inverse[i * p + j] as number) * (g[j] as number);
      direction[i] = di;
    }
    // A step moves no coordinate by more than max(1, |x_i|), so a poor early curvature
    // estimate cannot throw the search into a far, flat region (a trust bound, Nocedal &
    // Wright 2006 §4.1, kept as a cap on the line search's first trial).
    let reach = 1;
    for (let i = 0; i < p; i++)
      reach = Math.max(
        reach,
        Math.abs(direction[i] as number) / Math.max(1, Math.abs(x[i] as number)),
      );
    for (let i = 0; i < p; i++) {
      direction[i] = (direction[i] as number) / reach;
      slope += (direction[i] as number) * (g[i] as number);
    }
    // A decrease below f's rounding cannot be seen: the predicted one, −slope, is that small at
    // the minimum, and then neither this step nor a shorter one is tried.
    const noise = 4 * Number.EPSILON * Math.max(1, Math.abs(current.value));
    if (-slope <= noise) return done(iteration);
    let t = 1;
    let next: Float64Array | null = null as Float64Array | null;
    let atNext: { value: number; gradient: Float64Array } | null = null;
    for (let tries = 0; tries < 50 && -t * slope > noise; tries++) {
      const candidate = x.map((xi, i) => xi + t * (direction[i] as number));
      const value = counted.value(candidate);
      if (value <= current.value + 1e-4 * t * Math.min(slope, 0)) {
        next = candidate;
        atNext = { value, gradient: counted.gradient(candidate) };
        break;
      }
      t /= 2;
    }
    if (next === null || atNext === null) {
      if (refreshed) return done(iteration);
      inverse = positiveInverse(gradientDifferenceHessian(counted, x, current.gradient), p);
      refreshed = true;
      continue;
    }
    let change = 0;
    for (let i = 0; i < p; i++)
      change = Math.max(
        change,
        Math.abs((next[i] as number) - (x[i] as number)) / Math.max(1, Math.abs(x[i] as number)),
      );
    const gNext = atNext.gradient;
    const s = next.map((v, i) => v - (x[i] as number));
    const y = gNext.map((v, i) => v - (g[i] as number));
    let sy = 0;
    for (let i = 0; i < p; i++) sy += (s[i] as number) * (y[i] as number);
    if (sy > 1e-300) {
      // H⁺ = (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ, ρ = 1/(yᵀs).
      const rho = 1 / sy;
      const hy = new Float64Array(p);
      for (let i = 0; i < p; i++)
        for (let j = 0; j < p; j++)
          hy[i] = (hy[i] as number) + (inverse[i * p + j] as number) * (y[j] as number);
      let yhy = 0;
      for (let i = 0; i < p; i++) yhy += (y[i] as number) * (hy[i] as number);
      const updated = new Float64Array(p * p);
      for (let i = 0; i < p; i++)
        for (let j = 0; j < p; j++)
          updated[i * p + j] =
            (inverse[i * p + j] as number) -
            rho * ((hy[i] as number) * (s[j] as number) + (s[i] as number) * (hy[j] as number)) +
            (rho * rho * yhy + rho) * (s[i] as number) * (s[j] as number);
      inverse = updated;
    }
    refreshed = false;
    x = next;
    current = atNext;
    if (change < tolerance) return done(iteration);
  }
  return done(500);
}
