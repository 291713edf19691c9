/** differenceCells: A − B cell by cell, with the pooled within-cell noise of a difference. */
import { describe, expect, it } from "vitest";
import { differenceCells, RagciError } from "../../../src/core/index.js";
import { cellsFromRows, type TrialRows } from "./facetData.js";

function rows(values: Record<string, number[]>): TrialRows {
  const out: TrialRows = { doc: [], query: [], judge: [], variant: null, y: [] };
  for (const [key, ys] of Object.entries(values)) {
    const [d, q, j] = key.split("/").map(Number) as [number, number, number];
    for (const y of ys) {
      out.doc.push(d);
      out.query.push(q);
      out.judge?.push(j);
      out.y.push(y);
    }
  }
  return out;
}

describe("differenceCells", () => {
  const a = cellsFromRows(
    rows({ "0/0/0": [1, 0, 1], "0/0/1": [1, 1], "1/1/0": [0, 0], "1/1/1": [1] }),
  );
  const b = cellsFromRows(rows({ "0/0/0": [0, 1], "0/0/1": [0, 0], "1/1/0": [1, 1] }));
  const { cells, unmatched } = differenceCells(a, b);

  it("matches cells on (document, query, judge) and counts the unmatched", () => {
    expect(cells.n.length).toBe(3);
    expect(unmatched).toEqual({ a: 1, b: 0 });
  });

  it("gives mean A − B, n the harmonic mean of the reruns, pooled within sums doubled", () => {
    // Cell 0/0/0: A = [1, 0, 1] (mean 2/3, W 2/3), B = [0, 1] (mean 1/2, W 1/2).
    const m = (2 * 3 * 2) / (3 + 2);
    expect(cells.n[0]).toBeCloseTo(m, 15);
    expect((cells.sum[0] as number) / (cells.n[0] as number)).toBeCloseTo(2 / 3 - 1 / 2, 15);
    expect(cells.withinSumOfSquares[0]).toBeCloseTo(2 * (2 / 3 + 1 / 2), 15);
    expect(cells.withinDegreesOfFreedom?.[0]).toBe(3 + 2 - 2);
    // Cell 0/0/1: two reruns each, m = 2, d = 1 − 0.
    expect(cells.n[1]).toBe(2);
    expect(cells.sum[1]).toBe(2);
    expect(cells.withinDegreesOfFreedom?.[1]).toBe(2);
  });

  it("refuses tables that code documents differently", () => {
    const other = { ...b, labels: { ...b.labels, documents: ["x", "y"] } };
    expect(() => differenceCells(a, other)).toThrow(RagciError);
  });
});
