import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  quantilesType7,
  quantileType7,
  sortedCopy,
} from "../../../src/core/numeric/quantileType7.js";
import { tailOrderStatistics } from "../../../src/core/numeric/tailOrderStatistics.js";

const sortedAt = (values: Float64Array, ranks: number[]) => {
  const sorted = sortedCopy(values);
  return ranks.map((r) => sorted[r]);
};

describe("tailOrderStatistics", () => {
  it("equals a full sort at any ranks, with ties, and leaves the input unchanged", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: true })), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        (raw, picks) => {
          const values = Float64Array.from(raw);
          const before = Array.from(values);
          const ranks = picks.map((p) => p % values.length);
          // ±0 compare equal; a sort and a heap may return either, so compare as numbers.
          expect(tailOrderStatistics(values, ranks).map((x) => x + 0)).toEqual(
            sortedAt(values, ranks).map((x) => (x as number) + 0),
          );
          expect(Array.from(values)).toEqual(before);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads the bootstrap ranks of B = 999 and 9999 from both tails", () => {
    for (const B of [999, 9999]) {
      const values = Float64Array.from({ length: B }, (_, i) => Math.sin(i * 12.9898) * 43758.5453);
      const ranks = [24, 25, B - 26, B - 25];
      expect(tailOrderStatistics(values, ranks)).toEqual(sortedAt(values, ranks));
    }
  });

  it("falls back to selection for middle ranks and for NaN (sorted last, as a sort puts it)", () => {
    const values = Float64Array.from({ length: 500 }, (_, i) => (i * 7919) % 500);
    expect(tailOrderStatistics(values, [250, 3])).toEqual([250, 3]);
    const withNaN = Float64Array.from([3, Number.NaN, 1, 2]);
    expect(tailOrderStatistics(withNaN, [0, 2])).toEqual(sortedAt(withNaN, [0, 2]));
  });

  it("reads ranks beyond the tails by selection, and from a sorted copy with NaN among the values", () => {
    // B = 10,000 at 95%: ranks 249 and 9,750 are farther than the tails keep
    for (const n of [10_000, 2 ** 15, 2 ** 15 + 1, 50_000]) {
      const values = Float64Array.from(
        { length: n },
        (_, i) => Math.round(Math.sin(i * 12.9898) * 300) / 7,
      );
      const before = Array.from(values);
      const ranks = [249, 250, n - 251, n - 250, Math.floor(n / 2)];
      // ±0 compare equal; a sort and a selection may return either, so compare as numbers.
      const plusZero = (xs: (number | undefined)[]) => xs.map((x) => (x as number) + 0);
      expect(plusZero(tailOrderStatistics(values, ranks))).toEqual(
        plusZero(sortedAt(values, ranks)),
      );
      expect(Array.from(values)).toEqual(before);
      values[n - 1] = Number.NaN; // NaN sorted last, as a sort puts it (selection would not)
      expect(plusZero(tailOrderStatistics(values, ranks))).toEqual(
        plusZero(sortedAt(values, ranks)),
      );
    }
  });

  it("refuses a rank outside the array", () => {
    expect(() => tailOrderStatistics(new Float64Array(3), [3])).toThrow(RangeError);
  });
});

describe("quantilesType7", () => {
  it("equals quantileType7 on the sorted values", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (raw, ps) => {
          const values = Float64Array.from(raw);
          const sorted = sortedCopy(values);
          expect(quantilesType7(values, ps).map((x) => x + 0)).toEqual(
            ps.map((p) => quantileType7(sorted, p) + 0),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
