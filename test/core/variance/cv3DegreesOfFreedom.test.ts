import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { cv3DegreesOfFreedom } from "../../../src/core/variance/cv3DegreesOfFreedom.js";
import { exactCv3DegreesOfFreedom } from "./cv3Exact.js";

const stats = (n: readonly number[]) =>
  documentStats({ ids: n.map((_, i) => `d${i}`), n, s: n.map(() => 0) });

const relative = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

describe("cv3DegreesOfFreedom", () => {
  it("is 1.686756034164394 for k5_binary sizes (exact arithmetic; clubSandwich 0.5.8 CR3 Satterthwaite)", () => {
    expect(
      relative(cv3DegreesOfFreedom(stats([3, 9, 14, 26, 58])), 1.686756034164394),
    ).toBeLessThan(1e-13);
    expect(relative(exactCv3DegreesOfFreedom([3, 9, 14, 26, 58]), 1.686756034164394)).toBeLessThan(
      1e-13,
    );
  });

  it("is K − 1 for equal sizes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 200 }), fc.integer({ min: 1, max: 1e6 }), (k, size) => {
        const df = cv3DegreesOfFreedom(stats(Array.from({ length: k }, () => size)));
        expect(relative(df, k - 1)).toBeLessThan(1e-12);
      }),
    );
  });

  it("is 1 for any two documents: k₂ = 1/k₁, so the denominator is (k₁ + k₂)²", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1e9 }), (a, b) => {
        expect(Math.abs(cv3DegreesOfFreedom(stats([a, b])) - 1)).toBeLessThan(1e-13);
      }),
    );
  });

  it("matches the SPEC form evaluated exactly, on random sizes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 2, maxLength: 12 }),
        (n) => {
          expect(relative(cv3DegreesOfFreedom(stats(n)), exactCv3DegreesOfFreedom(n))).toBeLessThan(
            1e-12,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("matches it when one document holds almost every result, where (Σk²)² − Σk⁴ cancels in floating point", () => {
    for (const n of [
      [1e9, 1, 1],
      [1e12, 3, 5, 7],
      [1e15, 1, 2],
      [2 ** 40, 1, 1, 1, 1, 1],
    ]) {
      const exact = exactCv3DegreesOfFreedom(n);
      expect(relative(cv3DegreesOfFreedom(stats(n)), exact), `n = ${n}`).toBeLessThan(1e-12);
      expect(exact).toBeGreaterThanOrEqual(1);
    }
  });

  it("is invariant under permutation of the documents", () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.integer({ min: 1, max: 10_000 }), { minLength: 2, maxLength: 40 })
          .chain((n) => fc.tuple(fc.constant(n), fc.shuffledSubarray(n, { minLength: n.length }))),
        ([n, shuffled]) => {
          expect(
            relative(cv3DegreesOfFreedom(stats(shuffled)), cv3DegreesOfFreedom(stats(n))),
          ).toBeLessThan(1e-13);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("throws too-few-documents for K = 1", () => {
    expect(() => cv3DegreesOfFreedom(stats([5]))).toThrowError(
      expect.objectContaining({ code: "too-few-documents" }) as unknown as Error,
    );
  });
});
