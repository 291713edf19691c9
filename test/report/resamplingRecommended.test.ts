import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { analyze } from "../../src/core/analyze.js";
import { analysisOverviewRows } from "../../src/report/analysisOverview.js";
import type { AnalysisReport } from "../../src/report/analysisReport.js";
import { analysisReportTerminal } from "../../src/report/terminal.js";

// Issue 25: "a bootstrap-percentile pick is shown with `se 0 ν z`". A resampling interval has no
// quantile of a reference distribution (q = null): when a census study recommends one, the
// report shows no ν (not "z", which is a normal interval's) and no se of 0.
const stats = documentStats({
  ids: ["a", "b", "c", "d", "e", "f", "g", "h"],
  n: [12, 3, 40, 7, 9, 15, 4, 22],
  s: [7, 1, 22, 3, 6, 9, 1, 10],
});

function reportRecommending(method: "bootstrap-percentile" | "cr2"): AnalysisReport {
  const analysis = analyze(stats, { replicates: 999, seed: 1 });
  const micro = analysis.micro;
  if (!micro) throw new Error("no micro analysis");
  return {
    command: "ragci analyze",
    version: "test",
    inputs: [],
    entries: [
      {
        metric: "hit",
        system: "a",
        analysis: { ...analysis, micro: { ...micro, recommended: method } },
        aggregatesSha256: "0",
      },
      { metric: "hit", system: "b", analysis, aggregatesSha256: "0" },
    ],
    aggregatesFile: null,
    summation: "exact",
    notices: [],
  };
}

describe("a recommended resampling interval is shown without ν or se", () => {
  it("the overview line and the summary table of a bootstrap-percentile pick", () => {
    const report = reportRecommending("bootstrap-percentile");
    const percentile = report.entries[0]?.analysis.micro?.intervals["bootstrap-percentile"];
    expect(percentile?.available && percentile.q).toBeNull();
    const [header, row] = analysisOverviewRows(report);
    const nu = (header as string[]).indexOf("ν");
    expect(row?.[nu]).toBe("");
    const text = analysisReportTerminal(report, { color: false });
    const line = text.split("\n").find((l) => /^\s*micro\b.*bootstrap-percentile/.test(l));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/\bz\b/);
    expect(line).not.toMatch(/\s0\s/);
  });

  it("a t-based pick keeps its ν", () => {
    const [header, row] = analysisOverviewRows(reportRecommending("cr2"));
    expect(row?.[(header as string[]).indexOf("ν")]).toMatch(/^\d/);
  });
});
