/**
 * remlFit on many cells starts its θ search from a fit on a subsample of the documents instead
 * of θ = 1 (lme4's start, kept below 20,000 cells, where the lme4 tests run). Both searches
 * minimise the same criterion, so they must reach the same minimum — to the criterion's
 * rounding, and the components to the flatness of the criterion (varianceComponents.lme4.test.ts
 * allows 1e-5 against lme4 itself) — and the warm one must need fewer passes over the cells.
 */
import { describe, expect, it } from "vitest";
import { documentSubsample } from "../../../src/core/facets/documentSubsample.js";
import { facetLayout } from "../../../src/core/facets/facetLayout.js";
import { remlFit } from "../../../src/core/facets/remlFit.js";
import type { FacetCells } from "../../../src/core/index.js";
import { cellsFromRows, type DesignSpec, trialRows } from "./facetData.js";

const SD = { document: 0.6, query: 0.3, judge: 0.4, documentJudge: 0.2, variant: 0, residual: 0.8 };

function warmAndCold(spec: DesignSpec) {
  const cells = cellsFromRows(trialRows(spec));
  return { cells, warm: remlFit(cells), cold: remlFit(cells, { warmStart: false }) };
}

describe("remlFit's warm start on many cells", () => {
  // 600 documents × 9–11 queries × 4 judges, 12% of cells missing, 1–3 trials: ≈ 21,000 cells.
  const spec: DesignSpec = {
    seed: 28,
    documents: 600,
    queries: [9, 11],
    judges: 4,
    variants: 0,
    trials: [1, 3],
    missing: 0.12,
    sd: SD,
  };
  const { cells, warm, cold } = warmAndCold(spec);

  it("is used above 20,000 cells, and reaches the same minimum as the search from θ = 1", () => {
    expect(cells.n.length).toBeGreaterThan(20_000);
    expect(warm.search.start).toBe("subsample");
    expect(cold.search.start).toBe("one");
    expect(warm.layout.components).toEqual(["document", "query", "judge", "documentJudge"]);
    // The same minimum: neither is below the other by more than the criterion's rounding.
    const scale = Math.abs(cold.criterion);
    expect(Math.abs(warm.criterion - cold.criterion) / scale).toBeLessThan(1e-12);
    warm.theta.forEach((t, i) => {
      expect(Math.abs(t - (cold.theta[i] as number)) / Math.max(t, 1e-3)).toBeLessThan(1e-5);
    });
    expect(Math.abs(warm.sigma - cold.sigma) / cold.sigma).toBeLessThan(1e-7);
    expect(Math.abs(warm.pieces.mean - cold.pieces.mean)).toBeLessThan(1e-7);
  });

  it("needs fewer passes over the cells than the search from θ = 1", () => {
    const passes = (f: typeof warm) => f.search.values + f.search.gradients;
    expect(passes(warm)).toBeLessThan(passes(cold));
  });

  it("is not used below 20,000 cells (the search starts where lme4's does)", () => {
    const small = remlFit(cellsFromRows(trialRows({ ...spec, documents: 40 })));
    expect(small.search.start).toBe("one");
  });

  it("falls back to θ = 1 when the subsample does not identify the same components", () => {
    // 2,100 documents × 10 queries, one cell each: 21,000 cells, so every 3rd document is kept.
    // A second judge only in documents the subsample skips: it sees one judge, no judge component.
    const oneJudge = cellsFromRows(
      trialRows({ ...spec, documents: 2100, queries: 10, judges: 0, trials: 2, missing: 0 }),
    );
    const step = Math.ceil(oneJudge.n.length / 10_000);
    expect(step).toBe(3);
    const judge = Int32Array.from(oneJudge.document, (d, c) =>
      d % step !== 0 && (oneJudge.query[c] as number) % 2 === 1 ? 1 : 0,
    );
    const withJudge: FacetCells = {
      ...oneJudge,
      judge,
      labels: { ...oneJudge.labels, judges: ["j0", "j1"] },
    };
    const layout = facetLayout(withJudge);
    expect(layout.components).toContain("judge");
    expect(facetLayout(documentSubsample(layout, step)).components).not.toContain("judge");
    expect(remlFit(withJudge).search.start).toBe("one");
  });
});

describe("documentSubsample", () => {
  it("keeps every step-th document whole, codes as they are", () => {
    const cells = cellsFromRows(
      trialRows({
        seed: 3,
        documents: 7,
        queries: [1, 3],
        judges: 2,
        variants: 0,
        trials: 1,
        sd: SD,
      }),
    );
    const layout = facetLayout(cells);
    const sub = documentSubsample(layout, 3);
    expect([...new Set(sub.document)].sort()).toEqual([0, 3, 6]);
    // Every cell of a kept document, and nothing else.
    const kept = [...cells.document.keys()].filter((c) => (cells.document[c] as number) % 3 === 0);
    expect(sub.n.length).toBe(kept.length);
    const key = (s: FacetCells, c: number) =>
      `${s.document[c]}/${s.query[c]}/${s.judge?.[c]}/${s.n[c]}/${s.sum[c]}/${s.withinSumOfSquares[c]}`;
    expect(new Set(Array.from(sub.n, (_, c) => key(sub, c)))).toEqual(
      new Set(kept.map((c) => key(cells, c))),
    );
  });
});
