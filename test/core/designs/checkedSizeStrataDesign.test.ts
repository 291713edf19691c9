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

  it("refuses a cutoff that leaves a stratum with fewer than two documents", () => {
    // n = 2, 2, 4, 10, 10, 20: above 10 only one document is large.
    expect(refusal(4, 10)).toBe("`cutoff` 10: each stratum needs at least two documents");
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
    expect(message([6, 6, 6, 6, 7])).toBe(
      "census.csv: no size cutoff leaves two documents in each stratum (sizes run from 6 to 7 results, and 1 document has the largest); sample these documents by SRS (ragci plan gives K)",
    );
    expect(message([6, 6, 6, 6, 6])).toBe(
      "census.csv: no size cutoff leaves two documents in each stratum (every document has 6 results); sample these documents by SRS (ragci plan gives K)",
    );
    expect(message([6, 6, 6, 7, 7])).toBeNull();
  });
});
