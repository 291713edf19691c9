/**
 * The width bound (bench/method-guide/twinBound.mjs): a sample that misses some documents is a
 * sample of the census without them, so an interval that covers the goal on a census, on T (the
 * census without its most up- and down-pulling documents) and on the two between must be as wide
 * as the spread of their micro values on a share f of T's samples. Its samples are withheld.mjs's,
 * so each cell's coverage must be withheld.json's (no fpc, micro); each bound's arithmetic is
 * recomputed here from the census's size, the documents removed and K; and the paragraph of
 * docs/choosing-an-interval.md must be the one the study wrote.
 */
import { describe, expect, it } from "vitest";
import { guidePageSection, methodGuideJson, methodGuideSummary } from "../support/methodGuide.js";

interface Twin {
  up: number;
  down: number;
  censuses: number;
  missProbability: number;
  bounds: { value: number; missProbability: number; atLeast: number }[];
  twinValue: number;
  spread: number;
  share: number;
  reachedWidth: number;
  factor: number;
  twinDocuments: number;
  twinCoverage: number;
  twinSamples: number;
}
interface Cell {
  k: number;
  samples: number;
  coverage: number | null;
  best: Twin | null;
  bestAnywhere: Twin | null;
}
const study = methodGuideJson<{
  goal: number;
  results: Record<string, { documents: number; cells: Cell[] }>;
}>("twin-bound.json");
const withheld = methodGuideJson<{
  results: Record<
    string,
    {
      cells: {
        k: number;
        fpc: boolean;
        micro: { samplesRecommended: number; coverageWhenRecommended: number | null };
      }[];
    }
  >;
}>("withheld.json");
const cells = Object.entries(study.results).flatMap(([census, r]) =>
  r.cells.map((cell) => ({ census, M: r.documents, cell })),
);

/** C(M − m, K) / C(M, K), as a product. */
function missProbability(M: number, m: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p *= (M - m - i) / (M - i);
  return p;
}

describe("the twin bound (twin-bound.json)", () => {
  it("draws withheld.json's samples: the same recommended samples and micro coverage, no fpc", () => {
    expect(Object.keys(study.results)).toEqual(Object.keys(withheld.results));
    expect(cells.length).toBeGreaterThan(50);
    for (const { census, cell } of cells) {
      const same = withheld.results[census]?.cells.find((c) => c.k === cell.k && !c.fpc)?.micro;
      expect(cell.samples, `${census} K = ${cell.k}`).toBe(same?.samplesRecommended);
      expect(cell.coverage).toBe(same?.coverageWhenRecommended);
    }
  });

  it("each bound is f = Σ a_j − (J − 1), a_j = 1 − (1 − g)/P_j(miss), over distinct censuses", () => {
    const g = study.goal;
    const twins = cells.flatMap(({ census, M, cell }) =>
      [cell.best, cell.bestAnywhere].flatMap((t) =>
        t === null ? [] : [{ census, M, k: cell.k, t }],
      ),
    );
    expect(twins.length).toBeGreaterThan(50);
    for (const { census, M, k, t } of twins) {
      const { up, down } = t;
      expect(t.twinDocuments).toBe(M - up - down);
      // C misses all removed; with both sets, C∖U misses D and C∖D misses U.
      const misses = [missProbability(M, up + down, k)];
      if (up > 0 && down > 0)
        misses.push(missProbability(M - up, down, k), missProbability(M - down, up, k));
      expect(t.censuses).toBe(misses.length + 1);
      expect(t.bounds.map((b) => b.missProbability)).toEqual(
        misses.map((p) => expect.closeTo(p, 14)),
      );
      expect(t.missProbability).toBe(t.bounds[0]?.missProbability);
      // One system: every sample is recommended for, so a_j is exact.
      if (!census.includes("paired"))
        for (const b of t.bounds)
          expect(b.atLeast).toBeCloseTo(1 - (1 - g) / b.missProbability, 12);
      const f = t.bounds.reduce((x, b) => x + b.atLeast, 0) + g - t.bounds.length;
      expect(t.share).toBeCloseTo(f, 12);
      expect(t.share).toBeGreaterThan(0);
      const values = [t.twinValue, ...t.bounds.map((b) => b.value)];
      expect(t.spread).toBeCloseTo(Math.max(...values) - Math.min(...values), 14);
      expect(t.factor).toBeCloseTo(t.spread / t.reachedWidth, 12);
    }
  });

  it("the twin shown is one on which the recommended interval holds, and the most demanding found", () => {
    for (const { census, cell } of cells) {
      if (cell.best === null) continue;
      // It holds beyond Monte Carlo noise: 2 se above the goal.
      const p = cell.best.twinCoverage;
      const se = Math.sqrt((p * (1 - p)) / cell.best.twinSamples);
      expect(p - 2 * se, `${census} K = ${cell.k}`).toBeGreaterThanOrEqual(study.goal);
      expect(cell.bestAnywhere?.factor).toBeGreaterThanOrEqual(cell.best.factor);
    }
  });

  it("docs/choosing-an-interval.md carries the study's paragraph and TWIN-BOUND.md's summary", () => {
    const paragraph = guidePageSection("twin-bound");
    const summary = methodGuideSummary("TWIN-BOUND.md");
    expect(summary.length).toBeGreaterThan(100);
    expect(paragraph).toContain(summary);
    // The largest c among the twins where the recommended interval holds is the one it quotes.
    const largest = Math.max(
      ...cells.flatMap(({ cell }) => (cell.best === null ? [] : [cell.best.factor])),
    );
    expect(paragraph).toContain(`${largest.toFixed(2)}×`);
  });
});
