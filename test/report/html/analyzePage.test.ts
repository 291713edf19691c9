import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { analyze } from "../../../src/core/analyze.js";
import type { DocumentStats } from "../../../src/core/types.js";
import type { AnalysisReport } from "../../../src/report/analysisReport.js";
import { analyzeHtml } from "../../../src/report/html/analyzePage.js";

function page(stats: DocumentStats, options: Parameters<typeof analyze>[1] = {}) {
  const analysis = analyze(stats, { replicates: 199, ...options });
  const report: AnalysisReport = {
    command: "ragci analyze",
    version: "test",
    inputs: [
      { file: "x.csv", sha256: "ab".repeat(32), format: "csv", rows: 10, kind: "per-query" },
    ],
    entries: [{ metric: "hit", system: null, analysis, aggregatesSha256: "cd".repeat(32) }],
    aggregatesFile: null,
    summation: "exact",
    notices: [],
  };
  const html = analyzeHtml({
    report,
    stats: [stats],
    aggregates: {
      fileName: "x-aggregates.csv",
      csv: "doc,n,s\na,1,1\n",
      sha256: "ef".repeat(32),
      documents: stats.ids.length,
      columns: ["doc", "n", "s"],
    },
  });
  const { document } = parseHTML(html);
  return { html, text: document.body.textContent ?? "", document, analysis };
}

// Rates 0.2, 0.5, 0.75, 0.4, 0.6: none at 0 or 1; the largest document has the highest rate.
const interior = documentStats({
  ids: ["a", "b", "c", "d", "e"],
  n: [5, 4, 8, 5, 5],
  s: [1, 2, 6, 2, 3],
});
// Rates 0, 1, 0.5, 1, 0.25: one document at 0, two at 1; the largest document has rate 0.
const bounded = documentStats({
  ids: ["a", "b", "c", "d", "e"],
  n: [12, 2, 4, 3, 4],
  s: [0, 2, 2, 3, 1],
});

describe("analyzeHtml(report, stats, aggregates)", () => {
  it("is one self-contained document: no script, no external reference, a CSP that forbids fetches", () => {
    const { html, document } = page(interior);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//i);
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
    expect(csp?.getAttribute("content")).toContain("default-src 'none'");
  });

  it("says no document is at 0 or 1 only when none is, and counts them when some are", () => {
    expect(page(interior).text).toContain("No document is at exactly 0 or 1.");
    const { text, document } = page(bounded);
    expect(text).not.toContain("No document is at exactly 0 or 1.");
    expect(text).toContain("20.0% of documents are at exactly 0 and 40.0% at exactly 1.");
    const labels = [...document.querySelectorAll("#a1-rates text")].map((t) => t.textContent);
    expect(labels).toContain("1 at 0");
    expect(labels).toContain("2 at 1");
  });

  it("says micro is above macro when larger documents have higher rates, and below when lower", () => {
    const up = page(interior);
    expect((up.analysis.micro?.estimate ?? 0) > (up.analysis.macro?.estimate ?? 0)).toBe(true);
    expect(up.text).toContain("Micro is above macro");
    expect(up.text).toContain("documents with more results have higher values");
    const down = page(bounded);
    expect(down.text).toContain("Micro is below macro");
    expect(down.text).toContain("documents with more results have lower values");
  });

  it("states the fpc only with M, and the one estimand declared", () => {
    expect(page(interior).text).toContain("no finite-population correction");
    const finite = page(interior, { population: 20 });
    expect(finite.text).toContain(
      "5 of the population's M = 20 documents (sampling fraction 25.0%)",
    );
    expect(finite.text).toContain("multiplied by 1 − K/M = 0.75");
    expect(page(interior, { estimand: "macro" }).text).toContain(
      "Only macro is reported (declared with --estimand).",
    );
  });

  it("draws every interval of the analysis as a row of the interval figure, recommended first", () => {
    const { document, analysis } = page(interior);
    const rows = [
      ...document.querySelectorAll("#a1-intervals svg [aria-label='y-axis tick label'] text"),
    ].map((t) => t.textContent);
    const count =
      Object.keys(analysis.micro?.intervals ?? {}).length +
      Object.keys(analysis.macro?.intervals ?? {}).length;
    expect(rows).toHaveLength(count);
    expect(rows[0]).toBe(`micro · ${analysis.micro?.recommended} (recommended)`);
    for (const svg of document.querySelectorAll("figure svg")) {
      expect(svg.getAttribute("role")).toBe("img");
      expect(svg.querySelector("title")?.textContent).toBeTruthy();
      expect(svg.querySelector("desc")?.textContent).toBeTruthy();
    }
  });

  it("shows the estimates the analysis computed, as the terminal formats them", () => {
    const { document, analysis } = page(interior);
    const cell = (estimand: string, field: string) =>
      document.querySelector(
        `table[data-table="estimates"] tr[data-estimand="${estimand}"] td[data-field="${field}"]`,
      )?.textContent;
    const micro = analysis.micro;
    const interval = micro?.intervals[micro.recommended];
    if (!micro || !interval?.available) throw new Error("expected an available micro interval");
    const decimals = (cell("micro", "estimate") ?? "").split(".")[1]?.length ?? 0;
    expect(Number(cell("micro", "estimate"))).toBeCloseTo(micro.estimate, decimals - 1);
    expect(cell("micro", "lower")).toBe(interval.lower.toFixed(decimals));
    expect(cell("micro", "upper")).toBe(interval.upper.toFixed(decimals));
    expect(cell("micro", "method")).toBe(micro.recommended);
  });
});
