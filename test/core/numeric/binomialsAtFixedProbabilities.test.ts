import { describe, expect, it } from "vitest";
import { chunkBootstrapBinary } from "../../../src/core/bootstrap/chunkBootstrap.js";
import { binomialSampler } from "../../../src/core/numeric/binomial.js";
import { binomialsAtFixedProbabilities } from "../../../src/core/numeric/binomialsAtFixedProbabilities.js";
import { uniformSource } from "../../../src/core/numeric/uniform.js";
import { binaryStats } from "../../support/binaryStats.js";

/** A small linear congruential generator for the test's own choices (not the draws' stream). */
function choices(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe("binomialsAtFixedProbabilities", () => {
  // Inversion (n·p < 10), BTRD (n·p ≥ 10), the symmetry flip (p > ½), p = ½, 0 and 1, and two
  // tiny probabilities whose qⁿ tables do not both fit the cache (the second is computed each time).
  const probabilities = Float64Array.from([
    0.3, 0.5, 0.9, 0.999, 1e-3, 0, 1, 0.5000000000000001, 0.05, 0.7, 1e-5, 2e-5, 0.25,
  ]);
  const maxTrials = 2_000_000;

  it("draws, for the same uniforms, exactly what binomialSampler draws, and uses as many uniforms", () => {
    const pick = choices(7);
    const fixedUniforms = uniformSource(3, [2, 1]);
    const fixed = binomialsAtFixedProbabilities(probabilities, maxTrials, fixedUniforms);
    const referenceUniforms = uniformSource(3, [2, 1]);
    const reference = binomialSampler(referenceUniforms);
    const differing: string[] = [];
    const used = new Set<string>();
    for (let i = 0; i < 60_000; i++) {
      const j = Math.floor(pick() * probabilities.length);
      // Mostly small n (inversion), some up to 2·10⁶ (BTRD, the uncached qⁿ).
      const size = pick();
      const trials =
        size < 0.7
          ? Math.floor(pick() * 40)
          : size < 0.95
            ? Math.floor(pick() * 2000)
            : Math.floor(pick() * maxTrials);
      const p = probabilities[j] as number;
      const expected = reference(trials, p);
      const got = fixed(j, trials);
      if (!Object.is(got, expected))
        differing.push(`draw ${i}: Bin(${trials}, ${p}) ${got} ≠ ${expected}`);
      const s = p > 0.5 ? 1 - p : p;
      if (trials > 0 && p > 0 && p < 1) used.add(trials * s < 10 ? "inversion" : "btrd");
      if (p > 0.5 && p < 1) used.add("flip");
    }
    expect(differing.slice(0, 5)).toEqual([]);
    expect([...used].sort()).toEqual(["btrd", "flip", "inversion"]);
    // Both streams took the same number of uniforms: their next ones are equal.
    expect(fixedUniforms()).toBe(referenceUniforms());
  });
});

describe("chunkBootstrapBinary", () => {
  /** The chunk bootstrap as it was written before its setups were cached: binomialSampler. */
  function chunkBootstrapByBinomialSampler(
    n: number[],
    s: number[],
    replicates: number,
    seed: number,
    spawnKey: number[],
  ): { micro: Float64Array; macro: Float64Array } {
    const draw = binomialSampler(uniformSource(seed, spawnKey));
    const total = n.reduce((a, b) => a + b, 0);
    const micro = new Float64Array(replicates);
    const macro = new Float64Array(replicates);
    for (let b = 0; b < replicates; b++) {
      let left = total;
      let rest = total;
      let hits = 0;
      let rateSum = 0;
      let present = 0;
      for (let d = 0; d < n.length && left > 0; d++) {
        const nd = n[d] as number;
        rest -= nd;
        const count = d === n.length - 1 ? left : draw(left, nd / (nd + rest));
        left -= count;
        if (count === 0) continue;
        const h = draw(count, (s[d] as number) / nd);
        hits += h;
        rateSum += h / count;
        present++;
      }
      micro[b] = hits / total;
      macro[b] = rateSum / present;
    }
    return { micro, macro };
  }

  it("gives, replicate for replicate, the replicates of binomialSampler's successive binomials", () => {
    const pick = choices(11);
    for (let c = 0; c < 40; c++) {
      const k = 1 + Math.floor(pick() * 40);
      const largest = [8, 40, 3000][c % 3] as number;
      const n = Array.from({ length: k }, () => 1 + Math.floor(pick() ** 3 * largest));
      // Rates of 0, 1 and in between, so every branch of the draws is taken.
      const s = n.map((x) => (c % 5 === 0 ? 0 : c % 5 === 1 ? x : Math.floor(pick() * (x + 1))));
      const replicates = 1 + Math.floor(pick() * 300);
      const spawnKey = c % 2 === 0 ? [] : [c, 1];
      const stats = binaryStats(n, s);
      const got = chunkBootstrapBinary(stats, { replicates, seed: c, spawnKey });
      const expected = chunkBootstrapByBinomialSampler(n, s, replicates, c, spawnKey);
      expect(got.micro).toEqual(expected.micro);
      expect(got.macro).toEqual(expected.macro);
    }
  });
});
