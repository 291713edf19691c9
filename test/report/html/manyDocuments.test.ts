/**
 * A figure over as many documents as a large evaluation has: its minimum and maximum come
 * from a loop, not Math.min(...values), whose arguments overflow the stack past about 10⁵
 * values ("Maximum call stack size exceeded").
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { analyze } from "../../../src/core/analyze.js";
import { rateDistributionFigure } from "../../../src/report/html/rateDistributionFigure.js";

const MANY = 300_000;

describe("300,000 documents", () => {
  it("draws the distribution of paired differences with ties", () => {
    // Differences −1, 0 or 1 per document (graded as means, so not bounded): many ties at 0.
    const n = new Float64Array(MANY).fill(2);
    const s = Float64Array.from({ length: MANY }, (_, d) => (d % 3) - 1);
    const stats = documentStats({
      ids: Array.from({ length: MANY }, (_, d) => `d${d}`),
      n,
      s,
      ss: Float64Array.from(s, (x) => x * x),
      binary: false,
    });
    const svg = rateDistributionFigure({
      id: "many",
      stats,
      analysis: analyze(stats, { replicates: 0 }),
      what: "difference",
      decimals: 3,
      ties: true,
    });
    expect(svg).toContain("100000 ties at 0");
  });
});
