/**
 * The micro advice says that nothing in a sample tells the samples where logit-cv3 will miss,
 * and how much wider any interval from the sample alone would have to be: its numbers are
 * bench/method-guide/tail-diagnostic.json's (tailDiagnostic.mjs) and twin-bound.json's
 * (twinBound.mjs), checked here.
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { analyze } from "../../src/core/analyze.js";
import { TAIL_STUDIES, TAIL_STUDY, WIDTH_BOUND_STUDY } from "../../src/core/tailStudyFindings.js";
import { methodGuideJson } from "../support/methodGuide.js";

interface Rule {
  readonly budget: number;
  readonly trained: { readonly worstCoverageOthers: number; readonly shareFlaggedFine: number };
}
const study = methodGuideJson<{
  statistics: Readonly<Record<string, string>>;
  budgets: readonly number[];
  cells: readonly { census: string; k: number; missesDrewLargest: number; misses: number }[];
  rules: readonly Rule[];
}>("tail-diagnostic.json");

describe("the tail study the micro advice quotes", () => {
  it("on the power-law census, the misses that drew none of its largest 1%: the lowest share over K", () => {
    const cells = study.cells.filter((c) => c.census === "pareto");
    expect(cells.map((c) => c.k)).toEqual([10, 20, 50]);
    const lowest = Math.min(...cells.map((c) => 1 - c.missesDrewLargest));
    expect(
      Math.abs(lowest - TAIL_STUDY["pareto-k10-50-lowest/micro/misses-without-largest"]),
    ).toBeLessThan(0.0005);
  });

  it("the best rule within the largest budget leaves a trained census below 92%", () => {
    expect(Math.max(...study.budgets)).toBe(TAIL_STUDY["trained-best-rule/budget"]);
    const within = study.rules.filter(
      (r) => r.trained.shareFlaggedFine <= TAIL_STUDY["trained-best-rule/budget"],
    );
    expect(within.length).toBe(study.rules.length);
    const best = Math.max(...within.map((r) => r.trained.worstCoverageOthers));
    expect(
      Math.abs(best - TAIL_STUDY["trained-best-rule/micro/worst-unwarned-coverage"]),
    ).toBeLessThan(0.00005);
    expect(best).toBeLessThan(0.92);
  });

  it("the width bound on the power-law census at K = 50, on a census where logit-cv3 holds", () => {
    const bound = methodGuideJson<{
      goal: number;
      results: Record<
        string,
        {
          cells: {
            k: number;
            best: { factor: number; share: number; twinCoverage: number } | null;
          }[];
        }
      >;
    }>("twin-bound.json");
    const cells = bound.results.pareto?.cells ?? [];
    expect(cells.map((c) => c.k)).toEqual([10, 20, 50]);
    const at50 = cells[2]?.best;
    expect(at50?.twinCoverage).toBeGreaterThanOrEqual(bound.goal);
    expect(at50?.factor).toBeGreaterThan(1);
    expect(Math.abs((at50?.factor ?? 0) - TAIL_STUDY["pareto-k50/micro/width-bound"])).toBeLessThan(
      0.005,
    );
    expect(
      Math.abs((at50?.share ?? 0) - TAIL_STUDY["pareto-k50/micro/width-bound-share"]),
    ).toBeLessThan(0.005);
  });

  it("TAIL_STUDIES counts the statistics studied, and the advice quotes it", () => {
    expect(Object.keys(study.statistics)).toHaveLength(11);
    expect(TAIL_STUDIES).toContain("eleven sample statistics");
    const a = analyze(
      documentStats({ ids: ["a", "b", "c", "d", "e"], n: [1, 2, 3, 40, 5], s: [1, 1, 2, 20, 3] }),
      { replicates: 0 },
    );
    const text = a.advice.find((x) => x.code === "micro-unequal-sizes")?.message ?? "";
    expect(text).toContain(`On the power-law census 95.4% or more of the samples that missed`);
    expect(text).toContain("covering only 87.6% on the worst of those censuses");
    expect(text).toContain(TAIL_STUDIES);
    expect(text).toContain(
      "the width it reaches on 60.6% of the samples of one of them would have to be at least 1.47× the width logit-cv3 reaches on as many",
    );
    expect(text).toContain(WIDTH_BOUND_STUDY);
  });
});
