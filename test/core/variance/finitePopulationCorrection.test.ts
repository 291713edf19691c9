import { describe, expect, it } from "vitest";
import { finitePopulationCorrection } from "../../../src/core/index.js";

describe("finitePopulationCorrection", () => {
  it("finitePopulationCorrection(76, 1300) is 1 − 76/1300", () => {
    expect(finitePopulationCorrection(76, 1300)).toBe(1 - 76 / 1300);
  });
  it("is 0 for a census (K = M)", () => {
    expect(finitePopulationCorrection(20, 20)).toBe(0);
  });
  it("throws population-too-small when M < K", () => {
    expect(() => finitePopulationCorrection(20, 19)).toThrowError(/smaller than the 20 documents/);
  });
  it("throws invalid-option for a non-integer M", () => {
    expect(() => finitePopulationCorrection(5, 10.5)).toThrowError(/whole number/);
  });
});
