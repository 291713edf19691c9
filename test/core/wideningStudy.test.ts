/**
 * The widening study (bench/method-guide/inflation.mjs): how much wider the recommended
 * interval would have to be to reach 92% on every census. Its samples are withheld.mjs's, so
 * at 1× its coverage must be withheld.json's in every cell; its "one factor" must be the
 * largest need of any cell with at least 100 samples, reach the goal in each of them, and be
 * what docs/choosing-an-interval.md quotes.
 */
import { describe, expect, it } from "vitest";
import { guidePageSection, methodGuideJson } from "../support/methodGuide.js";

type Estimand = "micro" | "macro";
interface Cell<S> {
  k: number;
  fpc: boolean;
  micro: S;
  macro: S;
}
interface Widening {
  samples: number;
  coverage: number | null;
  factorForGoal: number | null;
  coverageAtNeeded: number | null;
}
interface Need {
  census: string;
  factor: number;
  where: { k: number; fpc: boolean; estimand: Estimand } | null;
}
const widening = methodGuideJson<{
  goal: number;
  needed: { factor: number };
  needs: Need[];
  results: Record<string, { label: string; cells: Cell<Widening>[] }>;
}>("inflation.json");
const withheld = methodGuideJson<{
  results: Record<
    string,
    {
      cells: Cell<{ samplesRecommended: number; coverageWhenRecommended: number | null }>[];
    }
  >;
}>("withheld.json");
const cells = Object.entries(widening.results).flatMap(([census, r]) =>
  r.cells.flatMap((cell) =>
    (["micro", "macro"] as const).map((estimand) => ({
      census,
      cell,
      estimand,
      x: cell[estimand],
    })),
  ),
);
const counted = cells.filter((c) => c.x.samples >= 100);

describe("the widening study (inflation.json)", () => {
  it("draws withheld.json's samples: the same recommended samples and coverage in every cell", () => {
    expect(Object.keys(widening.results)).toEqual(Object.keys(withheld.results));
    expect(cells.length).toBeGreaterThan(200);
    for (const { census, cell, estimand, x } of cells) {
      const same = withheld.results[census]?.cells.find(
        (c) => c.k === cell.k && c.fpc === cell.fpc,
      )?.[estimand];
      expect(x.samples, `${census} K = ${cell.k}`).toBe(same?.samplesRecommended);
      expect(x.coverage).toBe(same?.coverageWhenRecommended);
    }
  });

  it("its one factor is the largest need, and reaches the goal in every cell it counts", () => {
    const largest = Math.max(...counted.map((c) => c.x.factorForGoal as number));
    expect(widening.needed.factor).toBe(largest);
    expect(widening.needs[0]?.factor).toBe(largest);
    for (const { x } of counted) {
      expect(x.coverageAtNeeded as number).toBeGreaterThanOrEqual(widening.goal);
    }
    // A cell that covers below the goal as it is needs a factor above 1, and one at or above
    // it needs none: the factor and the coverage come from the same samples.
    for (const { x } of counted) {
      if ((x.coverage as number) < widening.goal) expect(x.factorForGoal).toBeGreaterThan(1);
      else expect(x.factorForGoal).toBeLessThanOrEqual(1);
    }
  });

  it("each census's need is the largest of its counted cells, sorted largest first", () => {
    for (const need of widening.needs) {
      const own = counted.filter((c) => c.census === need.census);
      expect(need.factor).toBe(Math.max(1, ...own.map((c) => c.x.factorForGoal as number)));
    }
    const factors = widening.needs.map((n) => n.factor);
    expect(factors).toEqual([...factors].sort((a, b) => b - a));
  });

  it("docs/choosing-an-interval.md quotes the three largest needs", () => {
    const paragraph = guidePageSection("inflation");
    for (const need of widening.needs.slice(0, 3)) {
      expect(paragraph).toContain(
        `${need.factor.toFixed(2)}× (${need.where?.estimand} on “${widening.results[need.census]?.label}” at K = ${need.where?.k}`,
      );
    }
  });
});
