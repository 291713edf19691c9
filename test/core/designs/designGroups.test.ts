import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { type DesignGroup, designGroups } from "../../../src/core/designs/designGroups.js";
import { RagciError } from "../../../src/core/errors.js";

const stats = documentStats({ ids: ["a", "b", "c", "d"], n: [1, 2, 3, 4], s: [1, 1, 2, 3] });
const words = {
  labels: "strata labels",
  group: "stratum",
  missingGroup: "stratum",
  sizes: "population sizes",
  size: "M_h",
};

describe("designGroups", () => {
  it("groups documents by label in order of first appearance, with each label's size", () => {
    const checked: string[] = [];
    const groups = designGroups(stats, {
      labels: ["y", "x", "y", "x"],
      sizes: { x: 5, y: 2 },
      words,
      check: (g) => {
        checked.push(g.name);
      },
    });
    expect(groups).toEqual([
      { name: "y", documents: [0, 2], population: 2 },
      { name: "x", documents: [1, 3], population: 5 },
    ]);
    expect(checked).toEqual(["y", "x"]);
  });

  it("refuses a label count that is not the document count, naming the labels", () => {
    expect(() =>
      designGroups(stats, { labels: ["x"], sizes: { x: 5 }, words, check: () => {} }),
    ).toThrow("the design gives 1 strata labels for 4 documents");
  });

  it("names a group without a size, and one with fewer documents in the population than sampled", () => {
    const units = {
      ...words,
      labels: "unit labels",
      group: "unit",
      missingGroup: "first-stage unit",
      sizes: "second_stage_population",
      size: "M_i",
    };
    const missing = () =>
      designGroups(stats, {
        labels: ["x", "x", "y", "y"],
        sizes: { x: 5 },
        words: units,
        check: () => {},
      });
    expect(missing).toThrow(
      'first-stage unit "y" is in the data but not in the design\'s second_stage_population',
    );
    try {
      missing();
    } catch (error) {
      expect(error).toBeInstanceOf(RagciError);
      expect((error as RagciError).context).toEqual({ stratum: "y" });
    }
    expect(() =>
      designGroups(stats, {
        labels: ["x", "x", "x", "y"],
        sizes: { x: 2, y: 1 },
        words: units,
        check: () => {},
      }),
    ).toThrow('unit "x" has 3 sampled documents but M_i = 2 in the design');
    expect(() =>
      designGroups(stats, {
        labels: ["x", "x", "y", "y"],
        sizes: { x: 2.5, y: 2 },
        words,
        check: () => {},
      }),
    ).toThrow('stratum "x" has 2 sampled documents but M_h = 2.5 in the design');
  });

  it("runs the design's own check on each group after its size checks, in order", () => {
    const seen: DesignGroup[] = [];
    // The first group passes the size checks and fails the design's check before the second
    // group's missing size is reached.
    expect(() =>
      designGroups(stats, {
        labels: ["x", "x", "y", "y"],
        sizes: { x: 2 },
        words,
        check: (g) => {
          seen.push(g);
          throw new RagciError("invalid-design", `group ${g.name} refused by the design`);
        },
      }),
    ).toThrow("group x refused by the design");
    expect(seen.map((g) => g.name)).toEqual(["x"]);
  });
});
