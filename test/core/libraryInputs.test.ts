/**
 * What a library caller gives is checked as the CLI checks it: a refusal is a RagciError with
 * one line, never a plain Error, a RangeError or a silent wrong answer.
 */
import { describe, expect, it } from "vitest";
import {
  compareSystems,
  decideGate,
  documentBootstrap,
  documentStats,
  type MetricComparisons,
  RagciError,
} from "../../src/core/index.js";

const stats = documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] });

describe("library inputs", () => {
  it("documentStats: n is a count of results, so 2.5 is refused (it was read as a 0/1 table)", () => {
    const fractional = () => documentStats({ ids: ["a", "b"], n: [2.5, 3], s: [1, 1] });
    expect(fractional).toThrow(RagciError);
    expect(fractional).toThrow(
      /^document "a" has n = 2\.5; n counts the document's results: a whole number ≥ 1$/,
    );
  });

  it("documentBootstrap: a negative or fractional seed, or B past the bound, is a RagciError", () => {
    const rates = { micro: 0.5, macro: 0.5375 };
    for (const options of [{ seed: -1 }, { seed: 1.5 }, { replicates: 2e6 }]) {
      expect(() => documentBootstrap(stats, rates, { replicates: 9, ...options })).toThrow(
        RagciError,
      );
    }
    expect(documentBootstrap(stats, rates, { replicates: 9, seed: 0 }).replicates).toBe(9);
  });

  it("decideGate: a pair not against the baseline is refused in words, not an internal Error", () => {
    const results = [
      {
        metric: "hit",
        comparisons: [
          {
            a: "x",
            b: "y",
            tests: { micro: { estimate: 0.01, se: 0.01, df: 10 } },
            difference: { documents: 10 },
          },
        ],
      },
    ] as unknown as MetricComparisons[];
    const options = {
      rule: "fail-if-worse",
      margin: 0,
      estimand: "micro",
      baseline: "base",
    } as const;
    expect(() => decideGate(results, 0.95, options)).toThrow(RagciError);
    expect(() => decideGate(results, 0.95, options)).toThrow(
      /the gate's baseline is base, but hit's pair y − x is against x/,
    );
  });
});

describe("compareSystems: the difference table must be b − a of the two systems' tables", () => {
  const a = {
    name: "a",
    stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [1, 1, 0] }),
  };
  const b = {
    name: "b",
    stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [2, 1, 1] }),
  };
  const difference = (ids: string[], s: number[]) =>
    documentStats({ ids, n: [2, 2, 2], s, ss: s.map(Math.abs), min: -1, max: 1 });
  const compare = (d: ReturnType<typeof difference>) =>
    compareSystems({ a, b, difference: d, queriesDiffering: null }, { replicates: 0 });

  it("b − a: accepted, the micro difference 1/3", () => {
    expect(compare(difference(["x", "y", "z"], [1, 0, 1])).difference.micro?.estimate).toBeCloseTo(
      1 / 3,
      12,
    );
  });

  it("a − b (the sign flipped): refused, naming the document and both sums", () => {
    expect(() => compare(difference(["x", "y", "z"], [-1, 0, -1]))).toThrow(
      /^document "x": the difference b − a sums to -1, but b's sum minus a's is 1: give the per-document sums of b − a$/,
    );
  });

  it("other documents: refused", () => {
    expect(() => compare(difference(["x", "y", "w"], [1, 0, 1]))).toThrow(RagciError);
  });
});
