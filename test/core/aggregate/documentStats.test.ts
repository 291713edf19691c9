import { describe, expect, it } from "vitest";
import { documentStats, documentStatsFromRows } from "../../../src/core/index.js";

describe("documentStats", () => {
  it("rejects n_d ≤ 0, naming the document", () => {
    expect(() => documentStats({ ids: ["a", "b"], n: [2, 0], s: [1, 0] })).toThrowError(
      /document "b" has n = 0/,
    );
  });
  it("rejects a repeated document id", () => {
    expect(() => documentStats({ ids: ["a", "a"], n: [2, 2], s: [1, 0] })).toThrowError(
      /appears twice/,
    );
  });
  it("rejects s_d > n_d for a 0/1 metric", () => {
    expect(() => documentStats({ ids: ["a", "b"], n: [2, 2], s: [3, 0] })).toThrowError(
      /integer s between 0 and n/,
    );
  });
  it("takes ss = s and the range [0, 1] for a binary metric", () => {
    const stats = documentStats({ ids: ["a"], n: [4], s: [3] });
    expect(Array.from(stats.ss)).toEqual([3]);
    expect([stats.min, stats.max, stats.binary]).toEqual([0, 1, true]);
  });
});

describe("documentStatsFromRows", () => {
  it("aggregates rows to n, s, ss per document in code-point order", () => {
    const stats = documentStatsFromRows(
      [
        { doc: "b", rr: 0.5 },
        { doc: "a", rr: 1 },
        { doc: "b", rr: 0.25 },
      ],
      { doc: "doc", metric: "rr" },
    );
    expect(stats.ids).toEqual(["a", "b"]);
    expect(Array.from(stats.n)).toEqual([1, 2]);
    expect(Array.from(stats.s)).toEqual([1, 0.75]);
    expect(Array.from(stats.ss)).toEqual([1, 0.3125]);
    expect([stats.binary, stats.min, stats.max]).toEqual([false, 0.25, 1]);
  });
  it("names the row of a non-finite value", () => {
    expect(() =>
      documentStatsFromRows(
        [
          { doc: "a", x: 1 },
          { doc: "a", x: Number.NaN },
        ],
        { doc: "doc", metric: "x" },
      ),
    ).toThrowError(/row 1/);
  });
});
