import { describe, expect, it } from "vitest";
import { compensatedSum } from "../../../src/core/numeric/compensatedSum.js";

describe("compensatedSum", () => {
  it("compensatedSum([1e16, 1, -1e16]) is 1 where plain summation gives 0", () => {
    expect(1e16 + 1 - 1e16).toBe(0);
    expect(compensatedSum([1e16, 1, -1e16])).toBe(1);
  });
  it("sums 10⁶ copies of 0.1 to within 1e-9 of 100000, where plain summation drifts by more than 1e-7", () => {
    const values = new Float64Array(1_000_000).fill(0.1);
    expect(Math.abs(compensatedSum(values) - 100000)).toBeLessThan(1e-9);
    let naive = 0;
    for (const v of values) naive += v;
    expect(Math.abs(naive - 100000)).toBeGreaterThan(1e-7);
  });
});
