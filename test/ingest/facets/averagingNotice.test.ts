/**
 * The averaging notice of a faceted file with as many cells as a large evaluation has: its
 * largest trial count comes from a loop, not Math.max(...n), whose arguments overflow the
 * stack past about 10⁵ cells.
 */
import { describe, expect, it } from "vitest";
import { averagingNotice } from "../../../src/ingest/readFacetCells.js";

const MANY = 300_000;

describe("averagingNotice on 300,000 cells", () => {
  it("says how many trials a faceted file's cells hold at most", () => {
    const n = new Float64Array(MANY).fill(2);
    n[MANY - 1] = 5;
    const notice = averagingNotice(
      [
        {
          system: null,
          metric: "score",
          cells: {
            document: new Int32Array(MANY),
            query: new Int32Array(MANY),
            judge: null,
            variant: null,
            n,
            sum: new Float64Array(MANY),
            withinSumOfSquares: new Float64Array(MANY),
            labels: { documents: ["a"], judges: null, variants: null },
          },
        },
      ],
      { trialColumn: "epoch", judgeColumn: null, variantColumn: null },
      "big.csv",
    );
    expect(notice).toBe(
      "big.csv: each query's result is its mean over its trials (column epoch, up to 5 per cell)",
    );
  });
});
