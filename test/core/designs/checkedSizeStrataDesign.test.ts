import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { checkedSizeStrataDesign } from "../../../src/core/designs/checkedSizeStrataDesign.js";
import { sizeStrataDesign } from "../../../src/core/designs/sizeStrataDesign.js";
import { RagciError } from "../../../src/core/errors.js";
import { COCHRAN, cochranCensus } from "./cochranCensus.js";

describe("checkedSizeStrataDesign: strata's refusals, in core", () => {
  const refusal = (documents: number, cutoff?: number) => {
    try {
      checkedSizeStrataDesign(cochranCensus, documents, cutoff, "census.csv");
    } catch (error) {
      expect(error).toBeInstanceOf(RagciError);
      return (error as RagciError).message;
    }
    return null;
  };

  it("gives sizeStrataDesign's design when there is one", () => {
    expect(checkedSizeStrataDesign(cochranCensus, COCHRAN.documents, COCHRAN.cutoff, "c")).toEqual(
      sizeStrataDesign(cochranCensus, COCHRAN.documents, COCHRAN.cutoff),
    );
  });

  it("refuses K below 4 (two per stratum) and above the census's M = 6, naming the option", () => {
    expect(refusal(3)).toBe("`documents` 3: give between 4 and the census's 6 documents");
    expect(refusal(7)).toBe("`documents` 7: give between 4 and the census's 6 documents");
    expect(refusal(4)).toBeNull();
    expect(refusal(6)).toBeNull();
  });

  it("takes a stratum of one document whole, and refuses a cutoff that leaves one empty", () => {
    // n = 2, 2, 4, 10, 10, 20: above 10 only one document is large, above 20 none.
    expect(refusal(4, 10)).toBeNull();
    const design = checkedSizeStrataDesign(cochranCensus, 4, 10, "census.csv");
    expect(design.allocations.map((a) => a.sampled)).toEqual([
      [1, 3],
      [1, 3],
      [1, 3],
      [1, 3],
    ]);
    expect(refusal(4, 20)).toBe(
      "`cutoff` 20: a stratum would hold no document (sizes run from 2 to 20 results, and 1 document has the largest); give a cutoff from the smallest size up to below the largest, or leave it out and one is proposed",
    );
    expect(refusal(4, 4)).toBeNull();
  });

  it("with no cutoff possible, says what the sizes are and what to do instead", () => {
    const census = (n: number[]) =>
      documentStats({ ids: n.map((_, i) => `d${i}`), n, s: n.map(() => 1) });
    const message = (n: number[]) => {
      try {
        checkedSizeStrataDesign(census(n), 4, undefined, "census.csv");
      } catch (error) {
        return (error as RagciError).message;
      }
      return null;
    };
    // The one document of 7 is a stratum taken whole.
    expect(message([6, 6, 6, 6, 7])).toBeNull();
    expect(message([6, 6, 6, 6, 6])).toBe(
      "census.csv: no size cutoff splits these documents in two (every document has 6 results); sample them by SRS (ragci plan gives K)",
    );
    expect(message([6, 6, 6, 7, 7])).toBeNull();
  });
});
