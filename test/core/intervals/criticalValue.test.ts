import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { criticalValue } from "../../../src/core/intervals/tInterval.js";
import { normalQuantile, tQuantile } from "../../../src/core/numeric/distributions.js";

describe("criticalValue (with its cache of recent t quantiles)", () => {
  it("is what the quantile functions give, whatever was asked before (ν null, ∞, repeated)", () => {
    const fresh = (level: number, df: number | null) =>
      df === null ? normalQuantile(1 - (1 - level) / 2) : tQuantile(1 - (1 - level) / 2, df);
    const df = fc.oneof(
      fc.constant(null),
      fc.constant(Number.POSITIVE_INFINITY),
      fc.integer({ min: 1, max: 40 }),
      fc.double({ min: 1, max: 1e4, noNaN: true }),
    );
    const level = fc.constantFrom(0.8, 0.9, 0.95, 0.99);
    fc.assert(
      fc.property(fc.array(fc.tuple(level, df), { minLength: 1, maxLength: 30 }), (asks) => {
        for (const [l, d] of asks) expect(criticalValue(l, d)).toStrictEqual(fresh(l, d));
      }),
    );
  });

  it("does not answer ν = ∞ with the normal quantile asked just before, nor the reverse", () => {
    const normal = criticalValue(0.95, null);
    expect(normal).toBeCloseTo(1.959964, 6);
    expect(criticalValue(0.95, Number.POSITIVE_INFINITY)).toStrictEqual(
      tQuantile(0.975, Number.POSITIVE_INFINITY),
    );
    expect(criticalValue(0.95, null)).toBe(normal);
  });
});
