import { describe, expect, it } from "vitest";
import { planSizeStratified } from "../../../src/core/planning/sizeStratifiedPlan.js";
import { COCHRAN, cochranCensus } from "../designs/cochranCensus.js";

describe("planSizeStratified (ragci plan --cutoff) against Cochran's stratified variance by hand", () => {
  const plan = planSizeStratified({
    census: cochranCensus,
    cutoff: COCHRAN.cutoff,
    halfWidth: 0.5,
    level: 0.95,
    // The SRS plan's K is the hand-worked K = 4, so atSrsDocuments is the allocation worked out.
    srs: { micro: { sd: 0.1, documents: 4 }, macro: { sd: 0.1, documents: 4 } },
  });

  it("at K = 4 the equal allocation is 2 + 2 with ν = K − H = 2", () => {
    for (const estimand of ["micro", "macro"] as const) {
      const equal = plan[estimand].allocations.find((a) => a.rule === "equal");
      expect(equal?.atSrsDocuments?.sampled).toEqual({ large: 2, small: 2 });
      expect(equal?.atSrsDocuments?.df).toBe(2);
    }
  });

  it("its half-width is qt(0.975, 2)·se with the hand-worked se of each estimand", () => {
    const halfWidth = (estimand: "micro" | "macro") =>
      plan[estimand].allocations.find((a) => a.rule === "equal")?.atSrsDocuments?.halfWidth;
    expect(halfWidth("macro")).toBeCloseTo(COCHRAN.t975df2 * COCHRAN.macroSe, 13);
    expect(halfWidth("micro")).toBeCloseTo(COCHRAN.t975df2 * COCHRAN.microSe, 13);
  });
});
