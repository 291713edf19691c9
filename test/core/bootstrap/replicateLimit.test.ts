import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { analysisSettings } from "../../../src/core/analysisSettings.js";
import { analyzeIntervals } from "../../../src/core/analyzeIntervals.js";
import {
  checkReplicatesForLevel,
  fewestReplicates,
  replicatesShortOfLevel,
} from "../../../src/core/bootstrap/replicateLimit.js";
import { analyzeSource } from "../../../src/simulation/analyzeSource.js";
import { compareSource } from "../../../src/simulation/compareSource.js";

const STATS = documentStats({
  ids: ["a", "b", "c", "d", "e"],
  n: [3, 9, 14, 26, 58],
  s: [1, 5, 10, 11, 19],
});
const RESAMPLED = ["bootstrap-t", "bootstrap-percentile", "chunk-bootstrap"] as const;

describe("fewestReplicates: B ≥ 2/α − 1, each α/2 tail holding a replicate", () => {
  it("is 19, 39, 199 and 19,999 at the usual levels, whatever 1 − level rounds to", () => {
    expect([0.9, 0.95, 0.99, 0.9999].map(fewestReplicates)).toEqual([19, 39, 199, 19_999]);
  });

  it("is the least B with (B + 1)·α/2 ≥ 1 at levels α = 2/m", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 2_000_000 }), (m) => {
        const level = 1 - 2 / m;
        const b = fewestReplicates(level);
        // (B + 1)·α/2 = (B + 1)/m: 1 exactly at B = m − 1, below one replicate before it.
        expect(b).toBe(m - 1);
      }),
    );
  });
});

describe("too few replicates for the level", () => {
  it("B = 1 leaves every bootstrap interval unavailable with the reason, not 0 wide", () => {
    const result = analyzeIntervals(STATS, { replicates: 1 });
    for (const estimand of ["micro", "macro"] as const)
      for (const method of RESAMPLED) {
        const interval = result[estimand].intervals[method];
        expect(interval?.available).toBe(false);
        expect(interval?.available === false && interval.reason).toBe(
          "B = 1 is too few for 95% bootstrap intervals: each 2.5% tail needs a replicate beyond its end, which takes B ≥ 39 (999 or more for stable ends)",
        );
      }
  });

  it("B = 39 at 95% and B = 19 at 90% give intervals of positive width", () => {
    for (const [replicates, level] of [
      [39, 0.95],
      [19, 0.9],
    ] as const) {
      const interval = analyzeIntervals(STATS, { replicates, level }).micro.intervals[
        "bootstrap-percentile"
      ];
      expect(interval?.available).toBe(true);
      if (interval?.available) expect(interval.upper).toBeGreaterThan(interval.lower);
    }
  });

  it("a default B too few for an extreme level says so without the 999 hint", () => {
    expect(replicatesShortOfLevel(9999, 0.9999)).toBe(
      "B = 9999 is too few for 99.99% bootstrap intervals: each 0.005% tail needs a replicate beyond its end, which takes B ≥ 19,999",
    );
    expect(replicatesShortOfLevel(0, 0.95)).toBeNull();
    expect(replicatesShortOfLevel(39, 0.95)).toBeNull();
  });

  it("a B asked for is refused; the default one is not", () => {
    expect(() => checkReplicatesForLevel(38, 0.95)).toThrow(
      "`replicates` 38 is too few for 95% bootstrap intervals",
    );
    expect(() => checkReplicatesForLevel(0, 0.95)).not.toThrow();
    const request = { level: 0.9999, replicates: 9999, seed: 1 };
    expect(() => analysisSettings({ ...request, replicatesExplicit: true }, null)).toThrow(
      /B ≥ 19,999, or 0 to turn resampling off$/,
    );
    expect(analysisSettings(request, null).replicates).toBe(9999);
  });

  it("analyzeSource and compareSource refuse such a B before reading anything", async () => {
    // The file does not exist: the refusal names B, not the file, because it comes first.
    const source = { files: ["/nonexistent/results.csv"] };
    const request = { level: 0.95, replicates: 1, seed: 1, replicatesExplicit: true };
    const selection = { metrics: ["hit"] };
    await expect(analyzeSource(source, selection, request, { version: "t" })).rejects.toThrow(
      "`replicates` 1 is too few for 95% bootstrap intervals",
    );
    await expect(compareSource(source, selection, request, { version: "t" })).rejects.toThrow(
      "`replicates` 1 is too few for 95% bootstrap intervals",
    );
  });
});
