import { describe, expect, it } from "vitest";
import { pilotSdRange } from "../../../src/core/planning/pilotSdRange.js";

// scipy 1.17: math.sqrt((k - 1) / chi2.ppf(0.975, k - 1)), math.sqrt((k - 1) / chi2.ppf(0.025, k - 1))
const SCIPY = [
  { k: 2, lower: 0.4461491849207089, upper: 31.91015934964397 },
  { k: 3, lower: 0.5206582666988174, upper: 6.2847346964853825 },
  { k: 20, lower: 0.7604903943298743, upper: 1.4605716361192191 },
  { k: 555, lower: 0.9444289784488034, upper: 1.0625721322895416 },
];

describe("pilotSdRange: the normal-theory 95% interval of σ over S", () => {
  for (const { k, lower, upper } of SCIPY)
    it(`K = ${k} as scipy's χ² quantiles give it`, () => {
      const range = pilotSdRange(k, 0.95);
      expect(Math.abs(range.lower / lower - 1)).toBeLessThan(1e-9);
      expect(Math.abs(range.upper / upper - 1)).toBeLessThan(1e-9);
    });

  it("narrows as the pilot grows, and a wider level widens it", () => {
    const ks = [2, 5, 20, 100, 1000].map((k) => pilotSdRange(k, 0.95));
    for (let i = 1; i < ks.length; i++) {
      expect(ks[i]?.lower).toBeGreaterThan(ks[i - 1]?.lower as number);
      expect(ks[i]?.upper).toBeLessThan(ks[i - 1]?.upper as number);
    }
    expect(pilotSdRange(20, 0.99).upper).toBeGreaterThan(pilotSdRange(20, 0.95).upper);
  });
});
