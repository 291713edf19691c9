import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupedInteger } from "../../src/core/groupedInteger.js";

describe("groupedInteger", () => {
  it("writes what toLocaleString('en-US') writes for every safe integer", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: -1e6, max: 1e6 }), (big, small) => {
        for (const x of [big, small, -big])
          expect(groupedInteger(x)).toBe(x.toLocaleString("en-US"));
      }),
    );
  });

  it("groups at each power of ten, and leaves other numbers as String() writes them", () => {
    expect([0, 999, 1000, 2_000_000, -1234567].map(groupedInteger)).toEqual([
      "0",
      "999",
      "1,000",
      "2,000,000",
      "-1,234,567",
    ]);
    expect([1.5, Number.NaN, 2 ** 60].map(groupedInteger)).toEqual(["1.5", "NaN", String(2 ** 60)]);
  });
});
