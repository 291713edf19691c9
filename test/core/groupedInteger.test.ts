import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupedInteger } from "../../src/core/groupedInteger.js";

describe("groupedInteger", () => {
  it("writes what toLocaleString('en-US') writes for every safe integer but -0", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: -1e6, max: 1e6 }), (big, small) => {
        // -big is -0 when big is 0; ICU writes "-0", a count is "0" (pinned below).
        for (const x of [big, small, -big].filter((v) => !Object.is(v, -0)))
          expect(groupedInteger(x)).toBe(x.toLocaleString("en-US"));
      }),
    );
  });

  it("groups at each power of ten, writes -0 as 0, and leaves other numbers as String() does", () => {
    expect([0, -0, 999, 1000, 2_000_000, -1234567].map(groupedInteger)).toEqual([
      "0",
      "0",
      "999",
      "1,000",
      "2,000,000",
      "-1,234,567",
    ]);
    expect([1.5, Number.NaN, 2 ** 60].map(groupedInteger)).toEqual(["1.5", "NaN", String(2 ** 60)]);
  });
});
