import { newtonDerivatives } from "./finiteDifferences.js";
import { symmetricEigen } from "./symmetricEigen.js";

/**
 * Minimises a smooth function of a few variables by Newton's method on finite-difference
 * derivatives, with the Hessian's eigenvalues made positive (|λ|, floored; Gill, Murray &
 * Wright 1981 §4.4) and a backtracking line search. Stops when a step changes no coordinate by
 * more than `tolerance` (relative to max(1, |x|)) or after 200 iterations.
 */
export function newtonMinimize(
  f: (x: Float64Array) => number,
  start: ArrayLike<number>,
  tolerance = 1e-10,
): { readonly x: Float64Array; readonly value: number; readonly iterations: number } {
  let x = Float64Array.from(start);
  let fx = f(x);
  const p = x.length;
  for (let iteration = 1; iteration <= 200; iteration++) {
    const { g, h } = newtonDerivatives(f, x, fx);
    const { values, vectors } = symmetricEigen(h, p);
    let largest = 0;
    for (const v of values) largest = Math.max(largest, Math.abs(v));
    const floor = Math.max(largest * 1e-10, 1e-12);
    // step = −V diag(1/max(|λ|, floor)) Vᵀ g
    const direction = new Float64Array(p);
    for (let e = 0; e < p; e++) {
      let proj = 0;
      for (let i = 0; i < p; i++) proj += (vectors[i * p + e] as number) * (g[i] as number);
      const scaled = proj / Math.max(Math.abs(values[e] as number), floor);
      for (let i = 0; i < p; i++)
        direction[i] = (direction[i] as number) - (vectors[i * p + e] as number) * scaled;
    }
    let t = 1;
    let accepted = false;
    let next = x;
    let fNext = fx;
    for (let tries = 0; tries < 60; tries++) {
      next = x.map((xi, i) => xi + t * (direction[i] as number));
      fNext = f(next);
      if (fNext <= fx) {
        accepted = true;
        break;
      }
      t /= 2;
    }
    if (!accepted) return { x, value: fx, iterations: iteration };
    let change = 0;
    for (let i = 0; i < p; i++)
      change = Math.max(
        change,
        Math.abs((next[i] as number) - (x[i] as number)) / Math.max(1, Math.abs(x[i] as number)),
      );
    x = next;
    fx = fNext;
    if (change < tolerance) return { x, value: fx, iterations: iteration };
  }
  return { x, value: fx, iterations: 200 };
}
