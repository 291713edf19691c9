import type { EstimandAnalysis } from "../core/analyze.js";
import type { AnalysisReport } from "./analysisReport.js";
import { estimateDecimals } from "./estimateDecimals.js";
import { fixed, intervalDf } from "./format.js";

export interface OverviewCells {
  readonly estimate: string;
  readonly interval: string;
  readonly df: string;
  readonly method: string;
}

export interface OverviewLine {
  readonly system: string | null;
  readonly metric: string;
  readonly documents: number;
  readonly micro: OverviewCells | null;
  readonly macro: OverviewCells | null;
}

function cells(e: EstimandAnalysis | null, decimals: number): OverviewCells | null {
  if (e === null) return null;
  const i = e.intervals[e.recommended];
  return {
    estimate: fixed(e.estimate, decimals),
    interval: i?.available
      ? `[${fixed(i.lower, decimals)}, ${fixed(i.upper, decimals)}]`
      : "unavailable",
    df: i?.available ? intervalDf(i) : "",
    method: e.recommended,
  };
}

/**
 * One line per system × metric: K, and for micro and macro the estimate, the recommended
 * interval, its ν and method — the overview a run of several systems or metrics starts with.
 */
export function analysisOverview(report: AnalysisReport): OverviewLine[] {
  return report.entries.map((entry) => {
    const decimals = estimateDecimals(entry.analysis);
    return {
      system: entry.system,
      metric: entry.metric,
      documents: entry.analysis.documents,
      micro: cells(entry.analysis.micro, decimals),
      macro: cells(entry.analysis.macro, decimals),
    };
  });
}

/** The overview as text rows (header first), system column only when there are systems. */
export function analysisOverviewRows(report: AnalysisReport): string[][] {
  const lines = analysisOverview(report);
  const withSystem = lines.some((l) => l.system !== null);
  const estimands = (["micro", "macro"] as const).filter((e) => lines.some((l) => l[e] !== null));
  const header = [
    ...(withSystem ? ["system"] : []),
    "metric",
    "K",
    ...estimands.flatMap((e) => [e, "interval", "ν", "method"]),
  ];
  const rows = lines.map((l) => [
    ...(withSystem ? [l.system ?? ""] : []),
    l.metric,
    String(l.documents),
    ...estimands.flatMap((e) => {
      const c = l[e];
      return c ? [c.estimate, c.interval, c.df, c.method] : ["", "", "", ""];
    }),
  ]);
  return [header, ...rows];
}
