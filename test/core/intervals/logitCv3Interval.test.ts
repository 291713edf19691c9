import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { logitCv3Interval } from "../../../src/core/intervals/logitCv3Interval.js";
import { cv3Variance } from "../../../src/core/variance/cv3.js";
import { cv3DegreesOfFreedom } from "../../../src/core/variance/cv3DegreesOfFreedom.js";
import { expectRelativelyClose } from "../../expectClose.js";

const REL = 1e-9;

const expectRelative = (actual: number | null, expected: number, label: string) =>
  expectRelativelyClose(actual, expected, { rel: REL, label });

const statsOf = (n: readonly number[], s: readonly number[]) =>
  documentStats({ ids: n.map((_, d) => `d${d}`), n, s });

interface NumpyCase {
  readonly name: string;
  readonly n: number[];
  readonly s: number[];
  readonly population: number | null;
  readonly seLogit: number;
  readonly nu3: number;
  readonly intervals: { level: number; q: number; lower: number; upper: number }[];
}
const fixture = JSON.parse(
  readFileSync(new URL("../../fixtures/numpy/cv3.json", import.meta.url), "utf8"),
) as { cases: NumpyCase[] };

describe("logitCv3Interval", () => {
  // numpy literal leave-one-out + matrix Satterthwaite + scipy t.ppf/expit (cv3.py).
  it.each(fixture.cases.map((c) => [c.name, c] as const))("%s matches numpy/scipy", (_, c) => {
    const stats = c.s.every(Number.isInteger)
      ? statsOf(c.n, c.s)
      : documentStats({
          ids: c.n.map((_, d) => `d${d}`),
          n: c.n,
          s: c.s,
          ss: c.s.map((x, d) => (x * x) / (c.n[d] as number)),
          binary: false,
        });
    for (const expected of c.intervals) {
      const interval = logitCv3Interval(stats, expected.level, true, c.population);
      if (!interval.available) throw new Error(interval.reason);
      expectRelative(interval.lower, expected.lower, "lower");
      expectRelative(interval.upper, expected.upper, "upper");
      expectRelative(interval.q, expected.q, "q");
      expectRelative(interval.seLogit as number, c.seLogit, "se_L");
      expectRelative(interval.df, c.nu3, "ν₃");
    }
  });

  const k5 = statsOf([3, 9, 14, 26, 58], [1, 5, 10, 11, 19]);

  it("reports se_L = √V₃/(R(1 − R)) and ν₃, and the fpc scales se_L by √(1 − K/M)", () => {
    const ratio = 46 / 110;
    const plain = logitCv3Interval(k5, 0.95, true, null);
    const finite = logitCv3Interval(k5, 0.95, true, 12);
    if (!plain.available || !finite.available) throw new Error("expected intervals");
    expectRelative(
      plain.seLogit as number,
      Math.sqrt(cv3Variance(k5)) / (ratio * (1 - ratio)),
      "se_L",
    );
    expectRelative(plain.df, cv3DegreesOfFreedom(k5), "df");
    expectRelative(
      finite.seLogit as number,
      (plain.seLogit as number) * Math.sqrt(1 - 5 / 12),
      "fpc",
    );
    expect(finite.df).toBe(plain.df);
  });

  it("works at K = 2 (ν₃ = 1) and stays inside (0, 1) where a t interval would not", () => {
    const interval = logitCv3Interval(statsOf([40, 30], [2, 3]), 0.95, true, null);
    if (!interval.available) throw new Error(interval.reason);
    expect(interval.df).toBeCloseTo(1, 13);
    expect(interval.lower).toBeGreaterThan(0);
    expect(interval.upper).toBeLessThan(1);
    expect(interval.lower).toBeLessThan(5 / 70);
    expect(interval.upper).toBeGreaterThan(5 / 70);
    // R − q·√V₃ would be negative: q = t(0.975; 1) ≈ 12.7, √V₃ ≈ 0.025.
    expect(
      5 / 70 - (interval.q as number) * Math.sqrt(cv3Variance(statsOf([40, 30], [2, 3]))),
    ).toBeLessThan(0);
  });

  it("is unavailable, never clipped, at R exactly 0 or 1", () => {
    for (const s of [
      [0, 0, 0],
      [3, 5, 8],
    ]) {
      const interval = logitCv3Interval(statsOf([3, 5, 8], s), 0.95, true, null);
      expect(interval.available).toBe(false);
      if (!interval.available) expect(interval.reason).toMatch(/exactly [01]/);
    }
  });

  it("is unavailable when every document has the same rate (V₃ = 0)", () => {
    const interval = logitCv3Interval(statsOf([3, 6, 9], [1, 2, 3]), 0.95, true, null);
    expect(interval).toEqual({
      available: false,
      reason: "every document has the same rate: the leave-one-document-out variance V₃ is 0",
    });
  });

  it("is unavailable for a census (M = K)", () => {
    const interval = logitCv3Interval(k5, 0.95, true, 5);
    expect(interval.available).toBe(false);
    if (!interval.available) expect(interval.reason).toMatch(/census/);
  });

  it("is unavailable for a metric outside [0, 1]", () => {
    expect(logitCv3Interval(k5, 0.95, false, null)).toEqual({
      available: false,
      reason: "metric not in [0, 1]",
    });
  });

  it("throws population-too-small for M < K and too-few-documents for K = 1", () => {
    expect(() => logitCv3Interval(k5, 0.95, true, 4)).toThrowError(
      expect.objectContaining({ code: "population-too-small" }) as unknown as Error,
    );
    expect(() => logitCv3Interval(statsOf([4], [1]), 0.95, true, null)).toThrowError(
      expect.objectContaining({ code: "too-few-documents" }) as unknown as Error,
    );
  });
});
