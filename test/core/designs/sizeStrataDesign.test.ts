import { describe, expect, it } from "vitest";
import { sizeStrataDesign } from "../../../src/core/designs/sizeStrataDesign.js";
import { COCHRAN, cochranCensus } from "./cochranCensus.js";

describe("sizeStrataDesign (ragci strata) against Cochran's stratified variance by hand", () => {
  const design = sizeStrataDesign(cochranCensus, COCHRAN.documents, COCHRAN.cutoff);

  it("splits the hand-worked census at 5 into three large and three small documents", () => {
    expect(design?.strata.map((h) => h.documents.length)).toEqual([3, 3]);
  });

  it("predicts se √19/60 (macro) and √(1515/442368) (micro) for equal and proportional K_h = 2", () => {
    for (const rule of ["equal", "proportional"] as const) {
      const a = design?.allocations.find((x) => x.rule === rule);
      expect(a?.sampled).toEqual([2, 2]);
      expect(a?.predicted.macro).toBeCloseTo(COCHRAN.macroSe, 15);
      expect(a?.predicted.micro).toBeCloseTo(COCHRAN.microSe, 15);
    }
  });
});
