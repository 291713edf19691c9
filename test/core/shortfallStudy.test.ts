/**
 * The shortfalls measured again (bench/method-guide/shortfall.mjs): every withheld.json cell
 * below the goal with enough samples is there, its first 1,000 samples are withheld.json's, the
 * "short" flag is the 2-se rule on its own coverage, and the guide page quotes the summary.
 */
import { describe, expect, it } from "vitest";
import { guidePageSection, methodGuideJson, methodGuideSummary } from "../support/methodGuide.js";

interface Shortfall {
  census: string;
  k: number;
  fpc: boolean;
  estimand: "micro" | "macro";
  firstSamples: number;
  firstCoverage: number;
  samples: number;
  coverage: number;
  mcSe: number;
  short: boolean;
}
type Summary = { samplesRecommended: number; coverageWhenRecommended: number | null };
const study = methodGuideJson<{ reps: number; goal: number; cells: Shortfall[] }>("shortfall.json");
const withheld = methodGuideJson<{
  reps: number;
  results: Record<string, { cells: { k: number; fpc: boolean; micro: Summary; macro: Summary }[] }>;
}>("withheld.json");

describe("the shortfalls on ten times the samples (shortfall.json)", () => {
  it("holds every withheld.json cell below the goal at K ≥ 10 with 100 samples or more", () => {
    const expected = Object.entries(withheld.results).flatMap(([census, r]) =>
      r.cells.flatMap((cell) =>
        (["micro", "macro"] as const)
          .filter(
            (e) =>
              cell.k >= 10 &&
              cell[e].samplesRecommended >= 100 &&
              (cell[e].coverageWhenRecommended as number) < study.goal,
          )
          .map((e) => `${census} ${cell.k} ${cell.fpc} ${e}`),
      ),
    );
    expect(study.cells.map((x) => `${x.census} ${x.k} ${x.fpc} ${x.estimand}`).sort()).toEqual(
      expected.sort(),
    );
    expect(study.cells.length).toBeGreaterThan(10);
  });

  it("extends withheld.json's samples, and flags a cell short only 2 se below the goal", () => {
    expect(study.reps).toBeGreaterThanOrEqual(10 * withheld.reps);
    for (const x of study.cells) {
      const first = withheld.results[x.census]?.cells.find((c) => c.k === x.k && c.fpc === x.fpc)?.[
        x.estimand
      ];
      expect(x.firstSamples).toBe(first?.samplesRecommended);
      expect(x.firstCoverage).toBe(first?.coverageWhenRecommended);
      expect(x.samples).toBeGreaterThanOrEqual(5 * x.firstSamples);
      expect(x.mcSe).toBeCloseTo(Math.sqrt((x.coverage * (1 - x.coverage)) / x.samples), 12);
      expect(x.short).toBe(x.coverage + 2 * x.mcSe < study.goal);
    }
  });

  it("the guide page quotes SHORTFALL.md's summary", () => {
    const summary = methodGuideSummary("SHORTFALL.md");
    expect(summary.length).toBeGreaterThan(100);
    expect(guidePageSection("shortfall")).toContain(summary);
  });
});
