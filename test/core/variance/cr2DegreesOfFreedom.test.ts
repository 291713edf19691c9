import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentStats, RagciError } from "../../../src/core/index.js";
import { cr2DegreesOfFreedom } from "../../../src/core/variance/cr2DegreesOfFreedom.js";

/** Exact rational ν = N² / ‖M‖²_F with M_dd = n_d and M_ij² = n_i² n_j² / ((N − n_i)(N − n_j)). */
function exactDf(n: readonly bigint[]): number {
  const total = n.reduce((a, b) => a + b, 0n);
  // Common denominator D = Π (N − n_d); ‖M‖² · D² accumulated as an integer.
  const rest = n.map((x) => total - x);
  const denominator = rest.reduce((a, b) => a * b, 1n);
  let numerator = 0n;
  for (let i = 0; i < n.length; i++) {
    numerator += (n[i] as bigint) ** 2n * denominator * denominator;
    for (let j = 0; j < n.length; j++) {
      if (i === j) continue;
      const others = denominator / (rest[i] as bigint) / (rest[j] as bigint);
      numerator += (n[i] as bigint) ** 2n * (n[j] as bigint) ** 2n * others * denominator;
    }
  }
  // ν = N² D² / numerator, as a double with ~17 digits.
  const scale = 10n ** 30n;
  const q = (total * total * denominator * denominator * scale) / numerator;
  return Number(q) / 1e30;
}

const stats = (n: number[]) =>
  documentStats({ ids: n.map((_, i) => `d${i}`), n, s: n.map(() => 0) });

describe("cr2DegreesOfFreedom", () => {
  it("cr2DegreesOfFreedom(stats) is 1 for any two documents", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1e9 }), (a, b) => {
        expect(Math.abs(cr2DegreesOfFreedom(stats([a, b])) - 1)).toBeLessThan(1e-14);
      }),
    );
  });

  it("cr2DegreesOfFreedom(stats) is K − 1 for equal sizes", () => {
    expect(cr2DegreesOfFreedom(stats([7, 7, 7, 7, 7]))).toBeCloseTo(4, 13);
  });

  it("matches exact rational arithmetic when one document holds almost every result (h_d → 1)", () => {
    for (const n of [
      [1e9, 1, 1],
      [1e12, 3, 5, 7],
      [1e15, 1, 2],
      [2 ** 40, 1, 1, 1, 1, 1],
    ]) {
      const exact = exactDf(n.map(BigInt));
      const actual = cr2DegreesOfFreedom(stats(n));
      expect(Math.abs(actual - exact) / exact, `n = ${n}`).toBeLessThan(1e-13);
    }
  });

  it("matches exact rational arithmetic on random sizes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 2, maxLength: 7 }),
        (n) => {
          const exact = exactDf(n.map(BigInt));
          expect(Math.abs(cr2DegreesOfFreedom(stats(n)) - exact) / exact).toBeLessThan(1e-13);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("is the k5_binary reference value 2.0873149114586846 (exact arithmetic, clubSandwich 0.5.8)", () => {
    expect(cr2DegreesOfFreedom(stats([3, 9, 14, 26, 58]))).toBeCloseTo(2.0873149114586846, 14);
  });

  it("throws too-few-documents for K = 1", () => {
    expect(() => cr2DegreesOfFreedom(stats([5]))).toThrow(RagciError);
  });
});
