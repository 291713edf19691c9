/**
 * queryPatterns groups a document's queries whose cells have the same (judge, variant, trials)
 * sequence; the REML passes count what such queries share (their value against lme4 is in
 * varianceComponents.lme4.test.ts, their derivatives in remlGradient.test.ts).
 */
import { describe, expect, it } from "vitest";
import { facetLayout } from "../../../src/core/facets/facetLayout.js";
import { queryPatterns } from "../../../src/core/facets/queryPatterns.js";
import type { FacetCells } from "../../../src/core/index.js";

// Document 0: queries 0 and 2 have judges 0, 1 with 2 trials each; query 1 lacks judge 1;
// query 3 has 3 trials for judge 1. Document 1: queries 4 and 5 alike.
const rows: [number, number, number, number][] = [
  // document, query, judge, trials
  [0, 0, 0, 2],
  [0, 0, 1, 2],
  [0, 1, 0, 2],
  [0, 2, 0, 2],
  [0, 2, 1, 2],
  [0, 3, 0, 2],
  [0, 3, 1, 3],
  [1, 4, 0, 1],
  [1, 4, 1, 1],
  [1, 5, 0, 1],
  [1, 5, 1, 1],
];
const cells: FacetCells = {
  document: Int32Array.from(rows, (r) => r[0]),
  query: Int32Array.from(rows, (r) => r[1]),
  judge: Int32Array.from(rows, (r) => r[2]),
  variant: null,
  n: Float64Array.from(rows, (r) => r[3]),
  sum: Float64Array.from(rows, (_, i) => i % 3),
  withinSumOfSquares: new Float64Array(rows.length),
  labels: { documents: ["a", "b"], judges: ["j0", "j1"], variants: null },
};

describe("queryPatterns", () => {
  it("groups the queries of a document whose cells have the same judges and trials", () => {
    const p = queryPatterns(facetLayout(cells));
    const groups = Array.from(p.patternStart.subarray(0, -1), (from, i) =>
      Array.from(p.queries.subarray(from, p.patternStart[i + 1])),
    );
    expect(groups).toEqual([[0, 2], [1], [3], [4, 5]]);
    expect(Array.from(p.documentPatternStart)).toEqual([0, 3, 4]);
    expect(p.maxCells).toBe(2);
  });
});
