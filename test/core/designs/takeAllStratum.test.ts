/**
 * A stratum of one document — a document larger than every other — is taken whole (a certainty
 * stratum): strata proposes it, plan and simulate accept it, and it adds no sampling variance.
 * (Its interval is R survey's with that stratum's fpc of 0: test/r-crosscheck/designs.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { allocate, fewestAllocated } from "../../../src/core/designs/allocation.js";
import { sizeStrataToSample } from "../../../src/core/designs/sizeStrata.js";
import { sizeStrataDesign } from "../../../src/core/designs/sizeStrataDesign.js";
import { stratifiedEstimates } from "../../../src/core/designs/stratified.js";
import { sampleStats } from "../../../src/core/simulation/sampleDocuments.js";
import {
  sizeStudyStrata,
  stratifiedIndices,
} from "../../../src/core/simulation/stratifiedSample.js";

// 19 documents of 4–12 results at rates about 0.7, and one of 400 at 0.3: it holds 76% of them.
const small = Array.from({ length: 19 }, (_, d) => 4 + (d % 9));
const n = [...small, 400];
const s = [...small.map((x, d) => Math.round(0.7 * x) - (d % 2)), 120];
const census = documentStats({ ids: n.map((_, d) => `d${String(d).padStart(2, "0")}`), n, s });
const N = n.reduce((a, b) => a + b, 0);

/** The sample standard deviation, written out. */
function sd(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((t, v) => t + (v - mean) ** 2, 0) / (values.length - 1));
}

describe("a stratum of one document, taken whole", () => {
  it("is the cutoff strata proposes here, every allocation giving it its one document", () => {
    const design = sizeStrataDesign(census, 8);
    expect(design?.cutoff).toBe(12);
    expect(design?.strata[0].documents).toEqual([19]);
    for (const a of design?.allocations ?? []) expect(a.sampled).toEqual([1, 7]);
  });

  it("adds nothing to the predicted variance: micro Var = M_s²(1 − K_s/M_s)·S²_z,s / K_s", () => {
    const design = sizeStrataDesign(census, 8);
    const R = s.reduce((a, b) => a + b, 0) / N;
    const z = small.map((x, d) => ((s[d] as number) - R * x) / N);
    const expected = Math.sqrt((19 * 19 * (1 - 7 / 19) * sd(z) ** 2) / 7);
    expect(design?.allocations[2]?.predicted.micro).toBeCloseTo(expected, 14);
  });

  it("allocate: Σ min(2, M_h) documents at least, one for the stratum of one", () => {
    const strata = [
      { population: 1, sd: 0.5 },
      { population: 19, sd: 0.1 },
    ];
    expect(fewestAllocated(strata)).toBe(3);
    expect(allocate(3, strata, "neyman")).toEqual([1, 2]);
    expect(() => allocate(2, strata, "equal")).toThrow("need between 3 and 20");
  });

  it("is refused only when empty", () => {
    expect(sizeStrataToSample(census, 12)[0].documents).toEqual([19]);
    expect(() => sizeStrataToSample(census, 400)).toThrow(
      "`cutoff` 400: the large stratum would hold no document",
    );
  });

  it("is in every simulated sample, whose stratified interval takes it as a census stratum", () => {
    const strata = sizeStudyStrata(census, 12, 8, "neyman");
    expect(strata.sampled).toEqual([1, 7]);
    for (let i = 0; i < 50; i++) {
      const { indices, labels } = stratifiedIndices(strata, 1, i);
      expect(indices[0]).toBe(19);
      expect(labels.filter((l) => l === "large")).toHaveLength(1);
      const sample = sampleStats(census, indices);
      const result = stratifiedEstimates(sample, {
        strata: labels,
        populationSizes: { large: 1, small: 19 },
      });
      // ν = K − H = 6; the large stratum's weight is 1 (M_h / K_h), so its 400 results count once.
      expect(result.micro.df).toBe(6);
      const drawnSmall = Array.from(indices.slice(1));
      const weight = 19 / 7;
      const estimate =
        (120 + weight * drawnSmall.reduce((t, d) => t + (s[d] as number), 0)) /
        (400 + weight * drawnSmall.reduce((t, d) => t + (n[d] as number), 0));
      expect(result.micro.estimate).toBeCloseTo(estimate, 14);
    }
  });
});
