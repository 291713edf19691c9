/**
 * Inverse of a small symmetric positive-definite matrix (n×n, row-major) through its Cholesky
 * factor A = L Lᵀ: A⁻¹ = L⁻ᵀ L⁻¹ (Golub & Van Loan 2013, §4.2). Writes into `out`; `work`
 * holds n² numbers (L, then L⁻¹ in place). No allocation, for inner loops.
 *
 * @throws Error when a pivot is not positive (A not positive definite)
 */
export function choleskyInverse(
  a: Float64Array,
  n: number,
  out: Float64Array,
  work: Float64Array,
): void {
  const l = work;
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j] as number;
    for (let k = 0; k < j; k++) d -= (l[j * n + k] as number) ** 2;
    if (!(d > 0)) throw new Error(`choleskyInverse: pivot ${j} is ${d}, not positive`);
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j] as number;
      for (let k = 0; k < j; k++) s -= (l[i * n + k] as number) * (l[j * n + k] as number);
      l[i * n + j] = s / ljj;
    }
  }
  // L⁻¹ in place (lower triangular), column by column from the diagonal down.
  for (let j = 0; j < n; j++) {
    l[j * n + j] = 1 / (l[j * n + j] as number);
    for (let i = j + 1; i < n; i++) {
      let s = 0;
      for (let k = j; k < i; k++) s -= (l[i * n + k] as number) * (l[k * n + j] as number);
      l[i * n + j] = s / (l[i * n + i] as number);
    }
  }
  // (A⁻¹)_ij = Σ_{k ≥ max(i, j)} (L⁻¹)_ki (L⁻¹)_kj.
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < n; k++) s += (l[k * n + i] as number) * (l[k * n + j] as number);
      out[i * n + j] = s;
      out[j * n + i] = s;
    }
  }
}
