import { describe, expect, it } from "vitest";
import { planSample } from "../../../src/core/planning/samplePlan.js";
import {
  planSizeStratified,
  planSizeStratifiedBeside,
} from "../../../src/core/planning/sizeStratifiedPlan.js";
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

describe("planSizeStratifiedBeside (plan --census --cutoff: the stratified plan next to the SRS plan)", () => {
  const srs = planSample({
    sd: { macro: 0.3, micro: 0.2 },
    halfWidth: 0.5,
    population: 6,
    level: 0.95,
    source: { kind: "given" },
  });

  it("is planSizeStratified at the SRS plan's w, level and each estimand's own S and K", () => {
    expect(planSizeStratifiedBeside(srs, cochranCensus, COCHRAN.cutoff)).toEqual(
      planSizeStratified({
        census: cochranCensus,
        cutoff: COCHRAN.cutoff,
        halfWidth: 0.5,
        level: 0.95,
        srs: {
          macro: { sd: 0.3, documents: srs.macro?.documents as number },
          micro: { sd: 0.2, documents: srs.micro?.documents as number },
        },
      }),
    );
  });

  it("refuses an SRS plan without a half-width (a paired plan of a difference alone)", () => {
    const detect = planSample({
      sd: { macro: 0.3, micro: 0.2 },
      difference: 0.1,
      population: 6,
      level: 0.95,
      source: { kind: "given" },
    });
    expect(() => planSizeStratifiedBeside(detect, cochranCensus, COCHRAN.cutoff)).toThrow(
      "internal: the SRS plan has no half-width",
    );
  });
});
