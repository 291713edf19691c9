import { newtonDerivatives } from "./finiteDifferences.js";
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

/** Central-difference gradient (steps 1e-4 relative, absolute near 0). */
function centralGradient(f: (x: Float64Array) => number, x: Float64Array): Float64Array {
  const g = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const xi = x[i] as number;
    const h = Math.abs(xi) > 1e-4 ? 1e-4 * Math.abs(xi) : 1e-4;
    const up = Float64Array.from(x);
    const down = Float64Array.from(x);
    up[i] = xi + h;
    down[i] = xi - h;
    g[i] = (f(up) - f(down)) / (2 * h);
  }
  return g;
}

/**
 * Minimises a smooth function of a few variables: quasi-Newton (BFGS on the inverse Hessian,
 * Nocedal & Wright 2006 §6.1) started from the finite-difference Hessian with its eigenvalues
 * made positive (Gill, Murray & Wright 1981 §4.4), central-difference gradients and a
 * backtracking line search; the Hessian is recomputed when a step fails. Stops when a step
 * changes no coordinate by more than `tolerance` (relative to max(1, |x|)).
 */
export function newtonMinimize(
  f: (x: Float64Array) => number,
  start: ArrayLike<number>,
  tolerance = 1e-10,
): { readonly x: Float64Array; readonly value: number; readonly iterations: number } {
  const p = start.length;
  let x: Float64Array = Float64Array.from(start);
  let fx = f(x);
  let inverse = positiveInverse(newtonDerivatives(f, x, fx).h, p);
  let g = centralGradient(f, x);
  let refreshed = true;
  for (let iteration = 1; iteration <= 500; iteration++) {
    const direction = new Float64Array(p);
    let slope = 0;
    for (let i = 0; i < p; i++) {
      let di = 0;
      for (let j = 0; j < p; j++) di -= (inverse[i * p + j] as number) * (g[j] as number);
      direction[i] = di;
      slope += di * (g[i] as number);
    }
    let t = 1;
    let next: Float64Array | null = null as Float64Array | null;
    let fNext = fx;
    for (let tries = 0; tries < 50; tries++) {
      const candidate = x.map((xi, i) => xi + t * (direction[i] as number));
      const value = f(candidate);
      if (value <= fx + 1e-4 * t * Math.min(slope, 0)) {
        next = candidate;
        fNext = value;
        break;
      }
      t /= 2;
    }
    if (next === null) {
      if (refreshed) return { x, value: fx, iterations: iteration };
      inverse = positiveInverse(newtonDerivatives(f, x, fx).h, p);
      refreshed = true;
      continue;
    }
    let change = 0;
    for (let i = 0; i < p; i++)
      change = Math.max(
        change,
        Math.abs((next[i] as number) - (x[i] as number)) / Math.max(1, Math.abs(x[i] as number)),
      );
    const gNext = centralGradient(f, next);
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
    fx = fNext;
    g = gNext;
    if (change < tolerance) return { x, value: fx, iterations: iteration };
  }
  return { x, value: fx, iterations: 500 };
}
