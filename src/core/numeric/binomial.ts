import binomialFactory from "@stdlib/random-base-binomial";

/**
 * Binomial(n, p) draws from a uniform source, in O(1 + n·min(p, 1 − p)) expected time, never
 * O(n): by symmetry p ≤ 1/2; for n·p < 10 inversion by sequential search on the pmf
 * (P(x+1) = P(x)·(n − x)/(x + 1)·p/q, starting at qⁿ ≥ e⁻²⁰, so no underflow); otherwise
 * @stdlib's BTRD (Hörmann 1993), O(1). (@stdlib's own small-n·p branch sums n Bernoullis.)
 */
export function binomialSampler(uniform: () => number): (trials: number, p: number) => number {
  const btrd = binomialFactory.factory({ prng: uniform });
  const draw = (trials: number, p: number): number => {
    if (trials === 0 || p <= 0) return 0;
    if (p >= 1) return trials;
    if (p > 0.5) return trials - draw(trials, 1 - p);
    if (trials * p >= 10) return btrd(trials, p);
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
  };
  return draw;
}
