/**
 * The study of samples given as their own census (bench/method-guide/pseudoPopulation.mjs): its
 * truth is the method guide's own study at K = 20, every census and sample size is there, and
 * the figures the simulate caveat quotes are the study's.
 */
import { describe, expect, it } from "vitest";
import { SAMPLE_AS_CENSUS_STUDY } from "../../src/core/simulation/sampleAsCensus.js";
import { guidePageSection, methodGuideJson, methodGuideSummary } from "../support/methodGuide.js";

type Sample = [number, string | null, number | null] | null;
interface Row {
  census: string;
  paired: boolean;
  documents: number;
  n: number;
  fpc: boolean;
  estimand: "micro" | "macro";
  defaultTrue: number;
  trueCoverage: Record<string, number>;
  samples: Sample[];
}
const study = methodGuideJson<{ samples: number; k: number; results: Row[] }>(
  "pseudo-population.json",
);
type Guide = Record<
  string,
  { studies: { k: number; methods: Record<string, { coverage: number }> }[] }
>;
const guide = {
  false: methodGuideJson<Guide>("results.json"),
  true: methodGuideJson<Guide>("results-fpc.json"),
};

/** Where the default holds on the census: the share of samples whose study picked one that does not. */
function pickShortWhereDefaultHeld(paired: boolean, fpc: boolean, n: number): number {
  const rows = study.results.filter(
    (r) => r.paired === paired && r.fpc === fpc && r.n === n && r.defaultTrue >= 0.92,
  );
  return Math.max(
    ...rows.map((r) => {
      const studied = r.samples.filter((s) => s !== null);
      const short = studied.filter((s) => (r.trueCoverage[s[1] as string] as number) < 0.92);
      return short.length / studied.length;
    }),
  );
}

describe("a sample given as its own census (pseudo-population.json)", () => {
  it("has every census at n = 50 and 100 (below M), with and without the fpc", () => {
    expect(study.k).toBe(20);
    const censuses = new Set(study.results.map((r) => r.census));
    const paired = new Set(study.results.filter((r) => r.paired).map((r) => r.census));
    expect([censuses.size - paired.size, paired.size]).toEqual([13, 7]);
    for (const census of censuses)
      for (const fpc of [false, true])
        for (const n of [50, 100])
          for (const estimand of ["micro", "macro"]) {
            const row = study.results.filter(
              (r) => r.census === census && r.fpc === fpc && r.n === n && r.estimand === estimand,
            );
            const documents = study.results.find((r) => r.census === census)?.documents as number;
            expect(row.length, `${census} ${fpc} ${n} ${estimand}`).toBe(n < documents ? 1 : 0);
            if (row[0]) expect(row[0].samples).toHaveLength(study.samples);
          }
  });

  it("takes as the truth the method guide's own study at K = 20 (same seed: the same coverages)", () => {
    let compared = 0;
    for (const r of study.results.filter((x) => !x.paired)) {
      const name = r.census.replace(/^heldout-tatqa/, "tatqa");
      const k20 = guide[`${r.fpc}`][name]?.studies.find((s) => s.k === 20);
      if (!k20) continue;
      for (const [method, coverage] of Object.entries(r.trueCoverage))
        expect(coverage, `${r.census} ${r.estimand}/${method}`).toBe(
          k20.methods[`${r.estimand}/${method}`]?.coverage,
        );
      compared++;
    }
    // 9 censuses in the method guide, 7 of 1,300 or 555 documents at two sizes, with and without the fpc.
    expect(compared).toBe(64);
  });

  it("gives the figures simulate's caveat quotes", () => {
    expect(SAMPLE_AS_CENSUS_STUDY.documents).toBe(50);
    for (const kind of ["single", "paired"] as const) {
      const quoted = SAMPLE_AS_CENSUS_STUDY[kind];
      expect(pickShortWhereDefaultHeld(kind === "paired", false, 50), kind).toBe(quoted.withoutFpc);
      expect(pickShortWhereDefaultHeld(kind === "paired", true, 50), kind).toBe(quoted.withFpc);
    }
  });

  it("the guide page quotes PSEUDO-POPULATION.md's summary", () => {
    const summary = methodGuideSummary("PSEUDO-POPULATION.md");
    expect(summary).toContain(
      `up to ${(100 * SAMPLE_AS_CENSUS_STUDY.single.withoutFpc).toFixed(1)}% of the samples of n = 50`,
    );
    expect(guidePageSection("pseudo-population")).toContain(summary);
  });
});
