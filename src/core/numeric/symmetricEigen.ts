/**
 * Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations (Golub & Van Loan
 * §8.5): A = V diag(λ) Vᵀ. For the few-by-few Hessians of variance-component fits, where
 * accuracy matters more than speed; cost O(p³) per sweep, a handful of sweeps.
 *
 * `a` is p×p, row-major, and is not modified. Returns the eigenvalues and the eigenvectors as
 * the columns of a row-major p×p matrix.
 */
export function symmetricEigen(
  a: Float64Array,
  p: number,
): { readonly values: Float64Array; readonly vectors: Float64Array } {
  const m = Float64Array.from(a);
  const v = new Float64Array(p * p);
  for (let i = 0; i < p; i++) v[i * p + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    let scale = 0;
    for (let i = 0; i < p; i++) {
      scale += (m[i * p + i] as number) ** 2;
      for (let j = i + 1; j < p; j++) off += (m[i * p + j] as number) ** 2;
    }
    if (off <= 1e-32 * scale || off === 0) break;
    for (let i = 0; i < p; i++) {
      for (let j = i + 1; j < p; j++) {
        const aij = m[i * p + j] as number;
        if (aij === 0) continue;
        const aii = m[i * p + i] as number;
        const ajj = m[j * p + j] as number;
        // Rotation that zeroes a_ij: tan θ = t, the smaller root of t² + 2τt − 1 = 0.
        const tau = (ajj - aii) / (2 * aij);
        const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        for (let k = 0; k < p; k++) {
          const mki = m[k * p + i] as number;
          const mkj = m[k * p + j] as number;
          m[k * p + i] = c * mki - s * mkj;
          m[k * p + j] = s * mki + c * mkj;
        }
        for (let k = 0; k < p; k++) {
          const mik = m[i * p + k] as number;
          const mjk = m[j * p + k] as number;
          m[i * p + k] = c * mik - s * mjk;
          m[j * p + k] = s * mik + c * mjk;
        }
        for (let k = 0; k < p; k++) {
          const vki = v[k * p + i] as number;
          const vkj = v[k * p + j] as number;
          v[k * p + i] = c * vki - s * vkj;
          v[k * p + j] = s * vki + c * vkj;
        }
      }
    }
  }
  const values = new Float64Array(p);
  for (let i = 0; i < p; i++) values[i] = m[i * p + i] as number;
  return { values, vectors: v };
}
