import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocate,
  documentStats,
  predictedStandardErrors,
  stratifiedEstimates,
} from "../../../src/core/index.js";
import { uniformSource } from "../../../src/core/internal.js";
import { mulberry32 } from "../../support/mulberry32.js";

describe("allocate", () => {
  const strata = [
    { population: 129, sd: 0.3 },
    { population: 1171, sd: 0.05 },
  ];
  it("adds up to K with at least 2 and at most M_h per stratum", () => {
    for (const rule of ["equal", "proportional", "neyman"] as const) {
      for (const k of [4, 20, 77, 500, 1300]) {
        const counts = allocate(k, strata, rule);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(k);
        counts.forEach((c, i) => {
          expect(c).toBeGreaterThanOrEqual(2);
          expect(c).toBeLessThanOrEqual((strata[i] as { population: number }).population);
        });
      }
    }
  });
  it("allocate(20, …, 'equal') is 10/10, proportional ≈ M_h share, Neyman ∝ M_h·S_h", () => {
    expect(allocate(20, strata, "equal")).toEqual([10, 10]);
    expect(allocate(100, strata, "proportional")).toEqual([10, 90]);
    // Neyman: 129·0.3 = 38.7 vs 1171·0.05 = 58.55, so 39.8% and 60.2% of 100
    const [large, small] = allocate(100, strata, "neyman");
    expect(large).toBe(40);
    expect(small).toBe(60);
  });
  it("one stratum at its minimum and another taken whole in one design still add up to K", () => {
    // An earlier version fixed both bounds in one pass: [3, 3] for K = 4.
    expect(
      allocate(
        4,
        [
          { population: 3, sd: 1 },
          { population: 3, sd: 0.01 },
        ],
        "neyman",
      ),
    ).toEqual([2, 2]);
    // Neyman shares 300 : 3 : 0.3 of 10 → 9.9, 0.099, 0.0099: the first is taken whole (M = 5),
    // the others get their minimum 2, and the 1 left goes to the larger weight.
    expect(
      allocate(
        10,
        [
          { population: 5, sd: 60 },
          { population: 30, sd: 0.1 },
          { population: 30, sd: 0.01 },
        ],
        "neyman",
      ),
    ).toEqual([5, 3, 2]);
    // S_h = 0 strata share what the weighted one cannot take.
    expect(
      allocate(
        8,
        [
          { population: 10, sd: 0 },
          { population: 3, sd: 1 },
          { population: 10, sd: 0 },
        ],
        "neyman",
      ),
    ).toEqual([3, 3, 2]);
  });

  it("property: counts add up to K, within [min(2, M_h), M_h]", () => {
    const stratum = fc.record({
      population: fc.integer({ min: 2, max: 40 }),
      sd: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 10, noNaN: true })),
    });
    fc.assert(
      fc.property(
        fc.array(stratum, { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom("equal", "proportional", "neyman" as const),
        (strata, at, rule) => {
          const total = strata.reduce((t, h) => t + h.population, 0);
          const k = 2 * strata.length + Math.floor(at * (total - 2 * strata.length));
          const counts = allocate(k, strata, rule);
          expect(counts.reduce((a, b) => a + b, 0)).toBe(k);
          counts.forEach((c, i) => {
            const h = strata[i] as { population: number };
            expect(c).toBeGreaterThanOrEqual(Math.min(2, h.population));
            expect(c).toBeLessThanOrEqual(h.population);
          });
        },
      ),
      { numRuns: 500, seed: 29 },
    );
  });

  it("refuses K below 2 per stratum or above the population", () => {
    expect(() => allocate(3, strata, "equal")).toThrow(/between 4 and 1300/);
    expect(() => allocate(1301, strata, "equal")).toThrow(/between 4 and 1300/);
  });
});

describe("predictedStandardErrors", () => {
  // A census of 60 documents, two size strata.
  const random = mulberry32(99);
  const n = Array.from({ length: 60 }, (_, d) =>
    d < 12 ? 40 + Math.floor(random() * 60) : 1 + Math.floor(random() * 10),
  );
  const s = n.map((x) => Math.floor(random() * (x + 1)));
  const census = documentStats({ ids: n.map((_, d) => `d${d}`), n, s });
  const strata = [
    { documents: Array.from({ length: 12 }, (_, d) => d) },
    { documents: Array.from({ length: 48 }, (_, d) => d + 12) },
  ];
  const sampled = [5, 7];

  it("matches the Monte-Carlo sd of the stratified macro estimator (exact formula) within 3%", () => {
    const predicted = predictedStandardErrors(census, strata, sampled);
    const uniform = uniformSource(5);
    const estimates: number[] = [];
    for (let rep = 0; rep < 20000; rep++) {
      const ids: string[] = [];
      const labels: string[] = [];
      const nn: number[] = [];
      const ss: number[] = [];
      strata.forEach((h, i) => {
        const pool = [...h.documents];
        for (let j = 0; j < (sampled[i] as number); j++) {
          const pick = j + Math.floor(uniform() * (pool.length - j));
          [pool[j], pool[pick]] = [pool[pick] as number, pool[j] as number];
          const d = pool[j] as number;
          ids.push(`d${d}`);
          labels.push(`h${i}`);
          nn.push(n[d] as number);
          ss.push(s[d] as number);
        }
      });
      const est = stratifiedEstimates(documentStats({ ids, n: nn, s: ss }), {
        strata: labels,
        populationSizes: { h0: 12, h1: 48 },
      });
      estimates.push(est.macro.estimate);
    }
    const mean = estimates.reduce((a, b) => a + b, 0) / estimates.length;
    const sd = Math.sqrt(
      estimates.reduce((a, x) => a + (x - mean) ** 2, 0) / (estimates.length - 1),
    );
    expect(Math.abs(sd / predicted.macro - 1)).toBeLessThan(0.03);
  });

  it("with one stratum of everything is the SRS prediction √((1 − K/M)·S²/K)", () => {
    const all = [{ documents: Array.from({ length: 60 }, (_, d) => d) }];
    const rates = n.map((x, d) => (s[d] as number) / x);
    const mean = rates.reduce((a, b) => a + b, 0) / 60;
    const S2 = rates.reduce((a, r) => a + (r - mean) ** 2, 0) / 59;
    expect(predictedStandardErrors(census, all, [12]).macro).toBeCloseTo(
      Math.sqrt(((1 - 12 / 60) * S2) / 12),
      12,
    );
  });
});
