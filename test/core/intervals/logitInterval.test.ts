import { describe, expect, it } from "vitest";
import { logitInterval } from "../../../src/core/index.js";

describe("logitInterval", () => {
  it("is unavailable at an estimate of exactly 0 or 1, never clipped", () => {
    for (const estimate of [0, 1]) {
      const interval = logitInterval(estimate, { se: 0.1, df: 10 }, 0.95, true);
      expect(interval.available).toBe(false);
      if (!interval.available) expect(interval.reason).toMatch(/exactly/);
    }
  });
  it("is unavailable for a metric outside [0, 1]", () => {
    expect(logitInterval(0.3, { se: 0.1, df: 10 }, 0.95, false)).toEqual({
      available: false,
      reason: "metric not in [0, 1]",
    });
  });
  it("stays inside (0, 1) even when the t interval would not", () => {
    const interval = logitInterval(0.02, { se: 0.05, df: 4 }, 0.95, true);
    if (!interval.available) throw new Error("expected an interval");
    expect(interval.lower).toBeGreaterThan(0);
    expect(interval.upper).toBeLessThan(1);
    expect(interval.seLogit).toBeCloseTo(0.05 / (0.02 * 0.98), 14);
  });
});
