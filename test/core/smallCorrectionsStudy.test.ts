/**
 * The four small corrections (bench/method-guide/smallCorrections.mjs): drawn on withheld.mjs's
 * samples (a paired cell's recommended coverage is withheld.json's), the two that only lower ν
 * are never narrower than the recommended interval, and the guide page quotes the summary.
 */
import { describe, expect, it } from "vitest";
import { guidePageSection, methodGuideJson, methodGuideSummary } from "../support/methodGuide.js";

interface Row {
  census: string;
  k: number;
  candidate: string;
  samples: number;
  recommendedCoverage: number;
  candidateCoverage: number;
  meanWidthRatio: number;
}
type Summary = { samplesRecommended: number; coverageWhenRecommended: number | null };
const study = methodGuideJson<{ results: Row[] }>("small-corrections.json");
const withheld = methodGuideJson<{
  results: Record<
    string,
    { paired: boolean; cells: { k: number; fpc: boolean; micro: Summary }[] }
  >;
}>("withheld.json");

describe("four small corrections (small-corrections.json)", () => {
  it("scores withheld.json's samples: a paired cell's recommended coverage is the same", () => {
    const paired = study.results.filter((r) => withheld.results[r.census]?.paired);
    expect(paired.length).toBeGreaterThan(10);
    for (const r of paired) {
      const same = withheld.results[r.census]?.cells.find((c) => c.k === r.k && !c.fpc)?.micro;
      expect(r.samples, `${r.census} K = ${r.k}`).toBe(same?.samplesRecommended);
      expect(r.recommendedCoverage).toBe(same?.coverageWhenRecommended);
    }
  });

  it("a candidate that only lowers ν is never narrower than the recommended interval", () => {
    const lowering = study.results.filter(
      (r) =>
        r.candidate !== "bias-corrected centre" && r.candidate !== "skewness correction (Hall)",
    );
    expect(lowering.length).toBeGreaterThan(30);
    for (const r of lowering) expect(r.meanWidthRatio).toBeGreaterThanOrEqual(1 - 1e-12);
  });

  it("scores Hall's skewness correction on every single-system census at K = 10, 20 and 50", () => {
    const hall = study.results.filter((r) => r.candidate === "skewness correction (Hall)");
    const single = Object.entries(withheld.results).filter(([, c]) => !c.paired);
    expect(single.length).toBe(13);
    for (const [census] of single)
      expect(hall.filter((r) => r.census === census).map((r) => r.k)).toEqual([10, 20, 50]);
  });

  it("the guide page quotes SMALL-CORRECTIONS.md's summary", () => {
    const summary = methodGuideSummary("SMALL-CORRECTIONS.md");
    expect(summary.length).toBeGreaterThan(100);
    expect(guidePageSection("small-corrections")).toContain(summary);
  });
});
