import { describe, expect, it } from "vitest";
import { sizeStrata } from "../../../src/core/designs/sizeStrata.js";

describe("sizeStrata", () => {
  it("puts documents with more than the cutoff in large, the rest in small, with their results", () => {
    expect(sizeStrata(Float64Array.of(3, 90, 5, 76, 77), 76)).toEqual([
      { name: "large", documents: [1, 4], results: 167 },
      { name: "small", documents: [0, 2, 3], results: 84 },
    ]);
  });

  it("leaves a stratum empty when no document is on its side", () => {
    expect(sizeStrata(Float64Array.of(1, 2), 10)).toEqual([
      { name: "large", documents: [], results: 0 },
      { name: "small", documents: [0, 1], results: 3 },
    ]);
  });
});
