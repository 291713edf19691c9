import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keepTailsInJs } from "../../../src/core/numeric/tailOrderStatistics.js";
import { tailsThroughKernel } from "../kernels/kernelCalls.js";

/** The `low` smallest ascending and the `high` largest descending, from a full sort. */
function tailsBySort(values: Float64Array, low: number, high: number) {
  const sorted = Float64Array.from(values).sort();
  return {
    smallest: Array.from(sorted.subarray(0, low)),
    largest: Array.from(sorted.subarray(sorted.length - high)).reverse(),
  };
}

// ±0 compare equal, so either may be kept: compare as numbers.
const plain = (xs: ArrayLike<number>) => Array.from(xs, (x) => x + 0);

describe("$tails (the tails kernel)", () => {
  it("keeps the same tails as a full sort and as its JS form, with ties and infinities", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: -4, max: 4 }),
            fc.double({ noNaN: true }),
            fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
          ),
          { minLength: 1, maxLength: 1200 },
        ),
        fc.nat(),
        fc.nat(),
        (raw, a, b) => {
          const values = Float64Array.from(raw);
          const low = 1 + (a % Math.min(64, values.length));
          const high = 1 + (b % Math.min(64, values.length));
          const expected = tailsBySort(values, low, high);
          const small = new Float64Array(low);
          const large = new Float64Array(high);
          expect(tailsThroughKernel(values, small, large)).toBe(true);
          expect(plain(small)).toEqual(plain(expected.smallest));
          expect(plain(large)).toEqual(plain(expected.largest));
          const smallJs = new Float64Array(low);
          const largeJs = new Float64Array(high);
          expect(keepTailsInJs(values, smallJs, largeJs)).toBe(true);
          expect(plain(smallJs)).toEqual(plain(small));
          expect(plain(largeJs)).toEqual(plain(large));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("$tails on values with a NaN is false, wherever the NaN is", () => {
    for (const at of [0, 5, 998]) {
      const values = Float64Array.from({ length: 999 }, (_, i) => Math.sin(i));
      values[at] = Number.NaN;
      expect(tailsThroughKernel(values, new Float64Array(26), new Float64Array(26))).toBe(false);
    }
  });

  it("$tails keeps the bootstrap tails of B = 9999 (the kernel's memory grows)", () => {
    const values = Float64Array.from({ length: 9999 }, (_, i) => Math.sin(i * 7.1) * 3);
    const small = new Float64Array(251);
    const large = new Float64Array(251);
    expect(tailsThroughKernel(values, small, large)).toBe(true);
    const expected = tailsBySort(values, 251, 251);
    expect(Array.from(small)).toEqual(expected.smallest);
    expect(Array.from(large)).toEqual(expected.largest);
  });
});
