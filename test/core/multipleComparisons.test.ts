import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { compareSystems, holmAdjust } from "../../src/core/compare.js";
import { comparisonMode, comparisonPairs } from "../../src/core/comparisonPairs.js";
import { RagciError } from "../../src/core/errors.js";
import { adjustablePValue, adjustComparisons } from "../../src/core/multipleComparisons.js";
import type { DocumentStats } from "../../src/core/types.js";

const ids = ["d1", "d2", "d3", "d4", "d5", "d6"];
const n = [4, 6, 3, 5, 8, 2];
const binary = (s: number[]) => documentStats({ ids, n, s });
// Per-document difference b − a of results that are 0/1: s_b − s_a, with ss = Σ (b − a)².
const difference = (a: number[], b: number[], ss: number[]) =>
  documentStats({ ids, n, s: b.map((v, i) => v - (a[i] as number)), ss, binary: false });

const systems: Record<string, number[]> = {
  low: [1, 2, 0, 1, 2, 0],
  lowCopy: [1, 2, 0, 1, 2, 0],
  high: [3, 5, 2, 4, 7, 2],
};
function comparison(a: string, b: string, options = {}) {
  const sa = systems[a] as number[];
  const sb = systems[b] as number[];
  // Each result of a and b is 0/1, paired by query: with a's hits a subset of b's, Σ (b − a)² = s_b − s_a.
  const ss = sb.map((v, i) => Math.abs(v - (sa[i] as number)));
  return compareSystems(
    {
      a: { name: a, stats: binary(sa) as DocumentStats },
      b: { name: b, stats: binary(sb) as DocumentStats },
      difference: difference(sa, sb, ss),
      queriesDiffering: null,
    },
    { replicates: 0, ...options },
  );
}

describe("comparisonPairs", () => {
  it("is one pair for two systems, and needs a policy for more", () => {
    expect(comparisonPairs(["a", "b"], {})).toEqual({ mode: "two", pairs: [["a", "b"]] });
    expect(() => comparisonPairs(["a", "b", "c"], {})).toThrow(
      "3 systems (a, b, c): choose `baseline` SYSTEM or `allPairs`",
    );
    expect(comparisonPairs(["a", "b", "c"], { baseline: "b" }).pairs).toEqual([
      ["b", "a"],
      ["b", "c"],
    ]);
    expect(comparisonPairs(["a", "b", "c"], { allPairs: true }).pairs).toEqual([
      ["a", "b"],
      ["a", "c"],
      ["b", "c"],
    ]);
    expect(() => comparisonPairs(["a", "b"], { baseline: "a", allPairs: true })).toThrow(
      RagciError,
    );
  });

  it("says its mode before the systems are known: comparisonMode(policy) is comparisonPairs' mode", () => {
    const policies = [
      {},
      { baseline: null },
      { baseline: "b" },
      { allPairs: true },
      { allPairs: false },
    ];
    const modes = policies.map((p) => comparisonMode(p));
    expect(modes).toEqual(["two", "two", "baseline", "all-pairs", "two"]);
    policies.forEach((p, i) => {
      expect(comparisonPairs(["a", "b"], p).mode).toBe(modes[i]);
    });
  });
});

describe("adjustComparisons", () => {
  it("adjusts each estimand by Holm and groups systems that cannot be told apart", () => {
    const comparisons = [
      comparison("low", "lowCopy"),
      comparison("low", "high"),
      comparison("lowCopy", "high"),
    ];
    const { holm, groups } = adjustComparisons(comparisons, "all-pairs", 0.95);
    // low and lowCopy agree on every document: se 0 and difference 0, so p counts as 1.
    expect(comparisons[0]?.tests.micro?.p).toBeNull();
    expect(adjustablePValue(comparisons[0]?.tests.micro)).toBe(1);
    const ps = comparisons.map((c) => adjustablePValue(c.tests.micro) as number);
    expect(holm.map((h) => h.micro)).toEqual(holmAdjust(ps));
    expect(groups.micro?.[0]).toEqual(["high"]);
    expect(groups.micro?.at(-1)).toEqual(["low", "lowCopy"]);
  });

  it("leaves an estimand that was not tested out, instead of treating it as p = 1", () => {
    const comparisons = [
      comparison("low", "high", { estimand: "micro" }),
      comparison("lowCopy", "high", { estimand: "micro" }),
    ];
    expect(comparisons[0]?.tests.macro).toBeUndefined();
    const { holm, groups } = adjustComparisons(comparisons, "all-pairs", 0.95);
    expect(holm.every((h) => h.macro === undefined && h.micro !== undefined)).toBe(true);
    expect(groups.macro).toBeUndefined();
    expect(groups.micro).toBeDefined();
  });

  it("adjusts nothing for one comparison, and does not group against a baseline", () => {
    expect(adjustComparisons([comparison("low", "high")], "two", 0.95)).toEqual({
      holm: [],
      groups: {},
    });
    const baseline = adjustComparisons(
      [comparison("low", "high"), comparison("low", "lowCopy")],
      "baseline",
      0.95,
    );
    expect(baseline.groups).toEqual({});
    expect(baseline.holm).toHaveLength(2);
  });

  it("has no p for a constant nonzero difference with se 0", () => {
    const test = {
      estimand: "micro",
      method: "cr2",
      estimate: 0.2,
      lower: 0.2,
      upper: 0.2,
      se: 0,
      df: 5,
      t: null,
      p: null,
      distinguishable: true,
    } as const;
    expect(adjustablePValue(test)).toBeNull();
    expect(adjustablePValue({ ...test, p: 0.03 })).toBe(0.03);
    expect(adjustablePValue(undefined)).toBeNull();
  });
});
