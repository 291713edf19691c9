import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { sizeDistribution } from "../../../src/core/diagnostics/sizeDistribution.js";
import { selectRanks } from "../../../src/core/numeric/orderStatistics.js";

/** Values with many ties (as sizes and rates have), or arbitrary doubles. */
const valuesArb = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 400 }),
  fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 400 }),
);

describe("selectRanks", () => {
  it("puts every requested rank where a sort puts it, with ≤ before and ≥ after", () => {
    fc.assert(
      fc.property(valuesArb, fc.array(fc.nat(), { maxLength: 10 }), (raw, picks) => {
        const values = Float64Array.from(raw);
        const sorted = Float64Array.from(raw).sort();
        const ranks = picks.map((p) => p % values.length);
        selectRanks(values, ranks);
        expect(Float64Array.from(values).sort()).toEqual(sorted);
        for (const r of ranks) {
          expect(values[r]).toBe(sorted[r]);
          for (let i = 0; i < r; i++) expect(values[i]).toBeLessThanOrEqual(values[r] as number);
          for (let i = r + 1; i < values.length; i++)
            expect(values[i]).toBeGreaterThanOrEqual(values[r] as number);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("is right on inputs built to defeat a median-of-three pivot (the sorting fallback)", () => {
    const k = 20_000;
    const pipe = Float64Array.from({ length: k }, (_, i) => (i < k / 2 ? i : k - i));
    const sorted = Float64Array.from(pipe).sort();
    const ranks = [0, k >> 2, k >> 1, (3 * k) >> 2, k - 1];
    selectRanks(pipe, ranks);
    for (const r of ranks) expect(pipe[r]).toBe(sorted[r]);
  });
});

describe("sizeDistribution", () => {
  it("matches quartiles and the largest-decile share computed from a full sort", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 2, maxLength: 300 }),
        (sizes) => {
          const stats = documentStats({
            ids: sizes.map((_, i) => `d${i}`),
            n: sizes,
            s: sizes.map(() => 0),
          });
          const sorted = [...sizes].sort((a, b) => a - b);
          const k = sizes.length;
          const q = (p: number) => {
            const h = (k - 1) * p;
            const lo = Math.floor(h);
            const hi = Math.min(lo + 1, k - 1);
            return (
              (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number))
            );
          };
          const result = sizeDistribution(stats);
          const expected = [0, 0.25, 0.5, 0.75, 1].map(q);
          result.quantiles.forEach((v, i) => {
            expect(v).toBeCloseTo(expected[i] as number, 12);
          });
          const decile = Math.max(1, Math.ceil(k / 10));
          const total = sizes.reduce((a, b) => a + b, 0);
          const top = sorted.slice(k - decile).reduce((a, b) => a + b, 0);
          expect(result.shareLargestDecile).toBe(top / total);
          expect(result.equalSizes).toBe(sorted[0] === sorted[k - 1]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
