import { describe, expect, it } from "vitest";
import { binomialSampler } from "../../../src/core/numeric/binomial.js";
import { uniformSource } from "../../../src/core/numeric/uniform.js";

/** Exact Binomial(n, p) pmf by the recursion from the mode outwards, normalised. */
function pmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  const mode = Math.floor((n + 1) * p);
  out[mode] = 1;
  for (let k = mode; k < n; k++)
    out[k + 1] = ((out[k] as number) * (n - k) * p) / ((k + 1) * (1 - p));
  for (let k = mode; k > 0; k--)
    out[k - 1] = ((out[k] as number) * k * (1 - p)) / ((n - k + 1) * p);
  const total = out.reduce((a, b) => a + b, 0);
  return out.map((x) => x / total);
}

/** Pearson χ² over bins with expected count ≥ 5 (tails pooled), and its degrees of freedom. */
function chiSquare(
  counts: Float64Array,
  probabilities: Float64Array,
  draws: number,
): { chi2: number; df: number } {
  let chi2 = 0;
  let bins = 0;
  let observed = 0;
  let expected = 0;
  for (let k = 0; k < probabilities.length; k++) {
    observed += counts[k] as number;
    expected += (probabilities[k] as number) * draws;
    if (expected >= 5) {
      chi2 += (observed - expected) ** 2 / expected;
      bins++;
      observed = 0;
      expected = 0;
    }
  }
  if (expected > 0) chi2 += (observed - expected) ** 2 / Math.max(expected, 1e-300);
  return { chi2, df: bins - 1 };
}

describe("binomialSampler", () => {
  const cases: [number, number, string][] = [
    [20, 0.3, "inversion"],
    [3, 0.5, "inversion at p = 1/2"],
    [50, 0.9, "symmetry p > 1/2"],
    [1000, 0.3, "BTRD"],
    [100_000, 0.001, "BTRD with small p"],
    [40, 0.25, "BTRD at n·p = 10"],
  ];
  it.each(cases)("Binomial(%i, %f) (%s) fits the exact pmf (χ² with a fixed seed)", (n, p) => {
    const draw = binomialSampler(uniformSource(42));
    const draws = 200_000;
    const counts = new Float64Array(n + 1);
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const x = draw(n, p);
      if (!(Number.isInteger(x) && x >= 0 && x <= n)) outside++;
      else counts[x] = (counts[x] as number) + 1;
    }
    expect(outside).toBe(0);
    const { chi2, df } = chiSquare(counts, pmf(n, p), draws);
    // χ² ≈ df ± √(2 df); 6 sd above is a p-value far below 1e-6.
    expect(chi2).toBeLessThan(df + 6 * Math.sqrt(2 * df));
    const mean = counts.reduce((s, c, k) => s + c * k, 0) / draws;
    expect(Math.abs(mean - n * p)).toBeLessThan(6 * Math.sqrt((n * p * (1 - p)) / draws));
  });

  it("returns 0 for no trials or p = 0 and n for p = 1, drawing nothing", () => {
    let calls = 0;
    const draw = binomialSampler(() => {
      calls++;
      return 0.5;
    });
    expect([draw(0, 0.3), draw(10, 0), draw(10, 1)]).toEqual([0, 0, 10]);
    expect(calls).toBe(0);
  });
});

describe("uniformSource", () => {
  it("uniformSource(1) gives default_rng(1).random(): 0.5118216247002567, 0.9504636963259353, 0.14415961271963373", () => {
    // numpy 2.4: np.random.default_rng(1).random(3)
    const u = uniformSource(1);
    expect([u(), u(), u()]).toEqual([0.5118216247002567, 0.9504636963259353, 0.14415961271963373]);
  });
});
