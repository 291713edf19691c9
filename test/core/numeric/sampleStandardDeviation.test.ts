import { describe, expect, it } from "vitest";
import {
  sampleStandardDeviation,
  sampleVariance,
} from "../../../src/core/numeric/sampleStandardDeviation.js";

describe("sampleVariance / sampleStandardDeviation", () => {
  it("sampleVariance([1, 2, 4]) is 7/3 (by hand: x̄ = 7/3, Σ(x − x̄)² = 42/9, ÷ 2)", () => {
    expect(sampleVariance([1, 2, 4])).toBeCloseTo(7 / 3, 15);
    expect(sampleStandardDeviation([1, 2, 4])).toBeCloseTo(Math.sqrt(7 / 3), 15);
  });

  it("keeps a tiny spread on a large offset (two passes, compensated): 1e9 + {0, 1, 2} has variance 1", () => {
    expect(sampleVariance(Float64Array.of(1e9, 1e9 + 1, 1e9 + 2))).toBe(1);
  });

  it("is 0 for equal values and throws RangeError below two values", () => {
    expect(sampleStandardDeviation([0.25, 0.25, 0.25])).toBe(0);
    expect(() => sampleVariance([1])).toThrow(RangeError);
    expect(() => sampleStandardDeviation([])).toThrow(RangeError);
  });
});
