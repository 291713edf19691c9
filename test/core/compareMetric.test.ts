import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { compareSystems, withCensusStudy } from "../../src/core/compare.js";
import { compareMetric } from "../../src/core/compareMetric.js";
import { comparisonPairs } from "../../src/core/comparisonPairs.js";
import { adjustComparisons } from "../../src/core/multipleComparisons.js";
import { runRepetitions } from "../../src/core/simulation/coverageStudy.js";
import { summarizeStudy } from "../../src/core/simulation/studySummary.js";

const ids = ["d1", "d2", "d3", "d4", "d5", "d6"];
const n = [4, 6, 3, 5, 8, 2];
// Per-document hits of three systems whose hits nest (low ⊂ mid ⊂ high, query by query), so
// the per-document sum of (b − a)² is |s_b − s_a|.
const hits: Record<string, number[]> = {
  low: [1, 2, 0, 1, 2, 0],
  mid: [2, 3, 1, 3, 4, 1],
  high: [3, 5, 2, 4, 7, 2],
};
const perSystem = Object.entries(hits).map(([system, s]) => ({
  system,
  metric: "hit",
  stats: documentStats({ ids, n, s }),
}));
const differences = comparisonPairs(Object.keys(hits).sort(), { allPairs: true }).pairs.map(
  ([a, b]) => {
    const d = (hits[b] as number[]).map((v, i) => v - ((hits[a] as number[])[i] as number));
    return {
      a,
      b,
      metric: "hit",
      stats: documentStats({ ids, n, s: d, ss: d.map(Math.abs), binary: false }),
      queriesDiffering: d.reduce((t, v) => t + Math.abs(v), 0),
    };
  },
);
const table = { perSystem, differences };
const statsOf = (system: string) => {
  const found = perSystem.find((p) => p.system === system);
  if (!found) throw new Error(`no system ${system}`);
  return found.stats;
};

describe("compareMetric", () => {
  it("compareMetric(metric, table, options) is compareSystems per pair, then adjustComparisons", () => {
    const result = compareMetric("hit", table, {
      mode: "all-pairs",
      level: 0.9,
      analysis: { replicates: 0 },
    });
    const expected = differences.map((d) =>
      compareSystems(
        {
          a: {
            name: d.a,
            stats: statsOf(d.a),
          },
          b: {
            name: d.b,
            stats: statsOf(d.b),
          },
          difference: d.stats,
          queriesDiffering: d.queriesDiffering,
        },
        { replicates: 0, level: 0.9 },
      ),
    );
    expect(result.metric).toBe("hit");
    expect(result.comparisons).toEqual(expected);
    const adjusted = adjustComparisons(expected, "all-pairs", 0.9);
    expect(result.holm).toEqual(adjusted.holm);
    expect(result.groups).toEqual(adjusted.groups);
    // Three pairs of three systems: every pair has a Holm p per estimand.
    expect(result.holm).toHaveLength(3);
  });

  it("keeps only the named metric's pairs, and two systems need no adjustment", () => {
    const one = compareMetric(
      "hit",
      {
        perSystem,
        differences: [
          ...differences.slice(0, 1),
          { ...differences[1], metric: "rr" },
        ] as typeof differences,
      },
      { mode: "two", level: 0.95, analysis: { replicates: 0 } },
    );
    expect(one.comparisons.map((c) => [c.a, c.b])).toEqual([["high", "low"]]);
    expect(one).toMatchObject({ holm: [], groups: {} });
  });

  it("gives each pair its design, built from the pair's document ids", () => {
    const seen: string[][] = [];
    const result = compareMetric("hit", table, {
      mode: "all-pairs",
      level: 0.95,
      analysis: { replicates: 0 },
      design: (pairIds) => {
        seen.push([...pairIds]);
        return {
          kind: "stratified",
          strata: pairIds.map((id) => (id < "d4" ? "small" : "large")),
          populationSizes: { small: 30, large: 30 },
        };
      },
    });
    expect(seen).toEqual([ids, ids, ids]);
    for (const c of result.comparisons) expect(c.difference.micro?.recommended).toBe("stratified");
  });

  it("takes a pair's recommendation from its census study when one is given", () => {
    const [first] = differences;
    if (!first) throw new Error("no pair");
    const options = {
      documents: 4,
      repetitions: 20,
      replicates: 0,
      seed: 1,
      level: 0.95,
      fpc: false,
      differences: true,
    };
    const study = summarizeStudy(first.stats, options, runRepetitions(first.stats, options, 0, 20));
    const result = compareMetric("hit", table, {
      mode: "all-pairs",
      level: 0.95,
      analysis: { replicates: 0 },
      censusStudy: (pair) => (pair === first ? { study, census: "census.csv" } : undefined),
    });
    const [studied, other] = result.comparisons;
    const plain = compareMetric("hit", table, {
      mode: "all-pairs",
      level: 0.95,
      analysis: { replicates: 0 },
    }).comparisons;
    expect(studied).toEqual(
      withCensusStudy(plain[0] as NonNullable<typeof studied>, study, "census.csv"),
    );
    expect(other).toEqual(plain[1]);
  });

  it("says which system has no sums (a table that does not hold the pair's systems)", () => {
    expect(() =>
      compareMetric(
        "hit",
        { perSystem: perSystem.slice(1), differences },
        { mode: "all-pairs", level: 0.95 },
      ),
    ).toThrow("internal: no aggregates for low/hit");
  });
});
