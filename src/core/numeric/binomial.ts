/**
 * Binomial(n, p) draws from a uniform source in O(1 + min(n·p, 30)) expected time, never O(n).
 * By symmetry p ≤ 1/2. For n·p < 10: inversion by sequential search on the pmf,
 * P(x+1) = P(x)·(n − x)/(x + 1)·p/q from P(0) = qⁿ ≥ e⁻²⁰ (no underflow). Otherwise BTRD,
 * the transformed rejection method with decomposition of Hörmann (1993, "The generation of
 * binomial random variates", J. Statist. Comput. Simul. 46), whose setup is a few
 * multiplications and one square root; its logarithms are only needed on the rare final test.
 */
export function binomialSampler(uniform: () => number): (trials: number, p: number) => number {
  const draw = (trials: number, p: number): number => {
    if (trials === 0 || p <= 0) return 0;
    if (p >= 1) return trials;
    if (p > 0.5) return trials - draw(trials, 1 - p);
    if (trials * p < 10) return inversion(uniform, trials, p);
    return btrd(uniform, trials, p);
  };
  return draw;
}

function inversion(uniform: () => number, trials: number, p: number): number {
  const q = 1 - p;
  const odds = p / q;
  let probability = q ** trials;
  let u = uniform();
  let x = 0;
  while (u > probability && x < trials) {
    u -= probability;
    probability *= (odds * (trials - x)) / (x + 1);
    x++;
  }
  return x;
}

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/**
 * Stirling's remainder fc(k) = ln k! − [(k + ½) ln(k + 1) − (k + 1) + ½ ln 2π] for k < 10 (the
 * chunk bootstrap's WebAssembly kernel reads these very doubles).
 */
export const STIRLING_SMALL: readonly number[] = Array.from({ length: 10 }, (_, k) => {
  let logFactorial = 0;
  for (let i = 2; i <= k; i++) logFactorial += Math.log(i);
  return logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + HALF_LOG_2PI);
});

function stirlingCorrection(k: number): number {
  if (k < 10) return STIRLING_SMALL[k] as number;
  const r = 1 / (k + 1);
  const r2 = r * r;
  return (1 / 12 - (1 / 360 - r2 / 1260) * r2) * r;
}

/** BTRD for p ≤ ½ and n·p ≥ 10 (binomialSampler's second branch). */
export function btrd(uniform: () => number, n: number, p: number): number {
  const q = 1 - p;
  const m = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const spq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * spq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  for (;;) {
    let v = uniform();
    let u: number;
    if (v <= urvr) {
      // Inside the central box: accept at once (about 86% of draws).
      u = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
    }
    if (v >= vr) {
      u = uniform() - 0.5;
    } else {
      u = v / vr - 0.93;
      u = Math.sign(u) * 0.5 - u;
      v = uniform() * vr;
    }
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - m);
    if (km <= 15) {
      // f(k)/f(m) by the pmf recursion.
      let f = 1;
      if (m < k) for (let i = m + 1; i <= k; i++) f *= nr / i - r;
      else if (m > k) for (let i = k + 1; i <= m; i++) v *= nr / i - r;
      if (v <= f) return k;
      continue;
    }
    // Squeeze with the normal approximation of log f(k)/f(m).
    const logV = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const t = (-km * km) / (2 * npq);
    if (logV < t - rho) return k;
    if (logV > t + rho) continue;
    // Exact test with Stirling's formula.
    const nm = n - m + 1;
    const h =
      (m + 0.5) * Math.log((m + 1) / (r * nm)) + stirlingCorrection(m) + stirlingCorrection(n - m);
    const nk = n - k + 1;
    const bound =
      h +
      (n + 1) * Math.log(nm / nk) +
      (k + 0.5) * Math.log((nk * r) / (k + 1)) -
      stirlingCorrection(k) -
      stirlingCorrection(n - k);
    if (logV <= bound) return k;
  }
}
