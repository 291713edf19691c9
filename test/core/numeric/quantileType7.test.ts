import { describe, expect, it } from "vitest";
import { quantileType7, sortedCopy } from "../../../src/core/numeric/quantileType7.js";

describe("quantileType7", () => {
  // numpy 2.x: np.quantile([3, 9, 14, 26, 58], [0, .25, .5, .75, 1]) and np.quantile([1, 2, 4, 10], .3)
  it("quantileType7(sorted [3, 9, 14, 26, 58], p) gives numpy's quartiles", () => {
    const sorted = sortedCopy([58, 3, 26, 14, 9]);
    expect([0, 0.25, 0.5, 0.75, 1].map((p) => quantileType7(sorted, p))).toEqual([
      3, 9, 14, 26, 58,
    ]);
  });
  it("interpolates linearly: quantileType7([1, 2, 4, 10], 0.3) = 1.9", () => {
    expect(quantileType7(sortedCopy([1, 2, 4, 10]), 0.3)).toBeCloseTo(1.9, 15);
  });
  it("returns the single value of a one-element array for any p", () => {
    expect(quantileType7(sortedCopy([7]), 0.9)).toBe(7);
  });
});
