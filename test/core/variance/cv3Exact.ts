/** Exact rational arithmetic for the CV3 tests: BigInt fractions, reduced, and their nearest double. */

export interface Fraction {
  readonly p: bigint;
  readonly q: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function fraction(p: bigint, q: bigint): Fraction {
  const g = gcd(p, q) || 1n;
  return q < 0n ? { p: -p / g, q: -q / g } : { p: p / g, q: q / g };
}

export const add = (a: Fraction, b: Fraction) => fraction(a.p * b.q + b.p * a.q, a.q * b.q);
export const multiply = (a: Fraction, b: Fraction) => fraction(a.p * b.p, a.q * b.q);
export const divide = (a: Fraction, b: Fraction) => fraction(a.p * b.q, a.q * b.p);

/** p/q to about 18 significant digits: the integer quotient at 2⁶⁴-fold precision, rescaled. */
export function toNumber({ p, q }: Fraction): number {
  if (p === 0n) return 0;
  const sign = p < 0n ? -1 : 1;
  const a = p < 0n ? -p : p;
  const shift = q.toString(2).length - a.toString(2).length + 64;
  const scaled = shift >= 0 ? (a << BigInt(shift)) / q : a / (q << BigInt(-shift));
  return sign * Number(scaled) * 2 ** -shift;
}

/** V₃ = (K−1)/K · Σ (s_d N − S n_d)² / (N² (N − n_d)²), exactly, for integer n and s. */
export function exactCv3Variance(n: readonly number[], s: readonly number[]): number {
  const nb = n.map(BigInt);
  const sb = s.map(BigInt);
  const total = nb.reduce((a, b) => a + b, 0n);
  const sum = sb.reduce((a, b) => a + b, 0n);
  let acc = fraction(0n, 1n);
  for (let d = 0; d < n.length; d++) {
    const u = (sb[d] as bigint) * total - sum * (nb[d] as bigint);
    const rest = total - (nb[d] as bigint);
    acc = add(acc, fraction(u * u, total * total * rest * rest));
  }
  const k = BigInt(n.length);
  return toNumber(multiply(acc, fraction(k - 1n, k)));
}

/** ν₃ = (Σk)² / (Σk² + (Σk²)² − Σk⁴), k_d = n_d / (N − n_d), exactly (the SPEC form as printed). */
export function exactCv3DegreesOfFreedom(n: readonly number[]): number {
  const nb = n.map(BigInt);
  const total = nb.reduce((a, b) => a + b, 0n);
  let k1 = fraction(0n, 1n);
  let k2 = fraction(0n, 1n);
  let k4 = fraction(0n, 1n);
  for (const x of nb) {
    const k = fraction(x, total - x);
    const kk = multiply(k, k);
    k1 = add(k1, k);
    k2 = add(k2, kk);
    k4 = add(k4, multiply(kk, kk));
  }
  const denominator = add(add(k2, multiply(k2, k2)), fraction(-k4.p, k4.q));
  return toNumber(divide(multiply(k1, k1), denominator));
}
