/**
 * Central finite differences of a smooth function of a few variables, with one Richardson step
 * (D = (4 D(h/2) − D(h)) / 3, error O(h⁴), as numDeriv's default does in R): the curvature that
 * Satterthwaite degrees of freedom need, as the Jacobian of an exact gradient, and the tests'
 * check of that gradient.
 */

/** Step for coordinate i: relative to |x_i|, absolute near 0 (numDeriv's d = 1e-4, eps = 1e-4). */
function step(x: number, relative: number): number {
  return Math.abs(x) > 1e-4 ? relative * Math.abs(x) : relative;
}

function shifted(x: Float64Array, i: number, hi: number): Float64Array {
  const y = Float64Array.from(x);
  y[i] = (y[i] as number) + hi;
  return y;
}

function gradientAt(f: (x: Float64Array) => number, x: Float64Array, scale: number): Float64Array {
  const g = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const h = step(x[i] as number, 1e-4) * scale;
    g[i] = (f(shifted(x, i, h)) - f(shifted(x, i, -h))) / (2 * h);
  }
  return g;
}

/** Gradient by central differences, one Richardson step (steps 1e-4·scale relative, then half). */
export function gradient(f: (x: Float64Array) => number, x: Float64Array, scale = 1): Float64Array {
  const coarse = gradientAt(f, x, scale);
  const fine = gradientAt(f, x, scale / 2);
  return coarse.map((c, i) => (4 * (fine[i] as number) - c) / 3);
}

function jacobianAt(
  f: (x: Float64Array) => Float64Array,
  x: Float64Array,
  m: number,
  scale: number,
): Float64Array {
  const p = x.length;
  const jac = new Float64Array(m * p);
  for (let j = 0; j < p; j++) {
    const h = step(x[j] as number, 1e-4) * scale;
    const up = f(shifted(x, j, h));
    const down = f(shifted(x, j, -h));
    for (let i = 0; i < m; i++)
      jac[i * p + j] = ((up[i] as number) - (down[i] as number)) / (2 * h);
  }
  return jac;
}

/**
 * Jacobian (m×p, row-major: ∂f_i/∂x_j) of a vector function by central differences, one
 * Richardson step; of an exact gradient, it is the Hessian with 4p gradient evaluations.
 */
export function jacobian(
  f: (x: Float64Array) => Float64Array,
  x: Float64Array,
  m: number,
  scale = 1,
): Float64Array {
  const coarse = jacobianAt(f, x, m, scale);
  const fine = jacobianAt(f, x, m, scale / 2);
  return coarse.map((c, i) => (4 * (fine[i] as number) - c) / 3);
}
