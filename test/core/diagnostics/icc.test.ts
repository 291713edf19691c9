import { describe, expect, it } from "vitest";
import { rateDistribution } from "../../../src/core/diagnostics/rateDistribution.js";
import { documentStats, icc } from "../../../src/core/index.js";

describe("icc", () => {
  it("is unavailable when every document has one result (no within-document variation)", () => {
    const stats = documentStats({ ids: ["a", "b", "c"], n: [1, 1, 1], s: [1, 0, 1] });
    expect(icc(stats)).toMatchObject({ available: false });
  });
  it("is −1/(n₀ − 1) when every document has the same rate (degenerate_equal reference: −0.08521739130434783)", () => {
    const stats = documentStats({
      ids: ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"],
      n: [4, 8, 8, 12, 16, 8, 16, 40],
      s: [1, 2, 2, 3, 4, 2, 4, 10],
    });
    const value = icc(stats);
    if (!value.available) throw new Error("ICC should be available");
    expect(value.icc).toBeCloseTo(-1 / (value.n0 - 1), 14);
  });
});

describe("rateDistribution", () => {
  it("calls rates equal by cross-multiplication (1/3 and 2/6), and counts exact 0 and 1", () => {
    expect(
      rateDistribution(documentStats({ ids: ["a", "b"], n: [3, 6], s: [1, 2] })).allEqual,
    ).toBe(true);
    const d = rateDistribution(
      documentStats({ ids: ["a", "b", "c", "d"], n: [3, 6, 2, 5], s: [0, 6, 1, 0] }),
    );
    expect(d.fractionZero).toBe(0.5);
    expect(d.fractionOne).toBe(0.25);
  });
});
