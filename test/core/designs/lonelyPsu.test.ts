import { describe, expect, it } from "vitest";
import {
  averagedVariance,
  isLonelyPsu,
  LONELY_PSU_RULES,
  lonelyPsuSummary,
  lonelyStratumVariance,
} from "../../../src/core/designs/lonelyPsu.js";

describe("lonely-PSU rule", () => {
  it("isLonelyPsu(x) accepts exactly survey's five survey.lonely.psu values", () => {
    expect(LONELY_PSU_RULES).toEqual(["fail", "remove", "adjust", "average", "certainty"]);
    for (const rule of LONELY_PSU_RULES) expect(isLonelyPsu(rule)).toBe(true);
    for (const other of ["Adjust", "collapse", "", null, 1]) expect(isLonelyPsu(other)).toBe(false);
  });

  it("lonelyPsuSummary names each one-document stratum and its treatment (census for M_h = 1)", () => {
    const strata = ["a", "b", "a", "c", "d"];
    const sizes = { a: 9, b: 40, c: 1, d: 2 };
    expect(lonelyPsuSummary(strata, sizes, "adjust")).toEqual({
      rule: "adjust",
      strata: { b: "adjust", c: "census", d: "adjust" },
    });
    expect(lonelyPsuSummary(strata, sizes, "fail")).toEqual({
      rule: "fail",
      strata: { c: "census" },
    });
    expect(lonelyPsuSummary(["a", "a"], { a: 9 }, "average")).toEqual({
      rule: "average",
      strata: {},
    });
  });

  it("lonelyStratumVariance(t, M_h, rule): (1 − 1/M_h)·t² for adjust, 0 for remove/certainty, null for average", () => {
    expect(lonelyStratumVariance(3, 4, "adjust")).toBe((3 / 4) * 9);
    expect(lonelyStratumVariance(3, 4, "remove")).toBe(0);
    expect(lonelyStratumVariance(3, 4, "certainty")).toBe(0);
    expect(lonelyStratumVariance(3, 4, "average")).toBeNull();
  });

  it("averagedVariance scales the known contributions by H / H_ok, and is the plain sum without gaps", () => {
    expect(averagedVariance([1, 2, null, 0])).toBe((3 * 4) / 3);
    expect(averagedVariance([1, 2, 0.5])).toBe(3.5);
  });
});
