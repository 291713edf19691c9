import type { Comparison } from "../core/compare.js";
import type { ComparisonReport } from "./comparisonReport.js";
import { decimalsFor, degreesOfFreedom, fixed } from "./format.js";

/** Decimals of a difference, as its pair section prints it: ~3 significant digits of each test's width. */
export function differenceDecimals(c: Comparison): number {
  return Math.max(
    3,
    ...(["micro", "macro"] as const).map((e) => {
      const t = c.tests[e];
      return t ? decimalsFor(t.upper - t.lower) : 3;
    }),
  );
}

/**
 * With several metrics, one line per metric × pair: K, and for micro and macro the difference,
 * its recommended interval, ν and method (header first) — the table a comparison run starts with.
 */
export function comparisonOverviewRows(report: ComparisonReport): string[][] {
  const header = ["metric", "b − a", "K"];
  for (const e of ["micro", "macro"]) header.push(e, "interval", "ν", "method");
  const rows = report.metrics.flatMap((m) =>
    m.comparisons.map((c) => {
      const decimals = differenceDecimals(c);
      return [
        m.metric,
        `${c.b} − ${c.a}`,
        String(c.difference.documents),
        ...(["micro", "macro"] as const).flatMap((e) => {
          const t = c.tests[e];
          const x = c.difference[e];
          if (!x) return ["", "", "", ""];
          return t
            ? [
                fixed(x.estimate, decimals),
                `[${fixed(t.lower, decimals)}, ${fixed(t.upper, decimals)}]`,
                degreesOfFreedom(t.df),
                t.method,
              ]
            : [fixed(x.estimate, decimals), "unavailable", "", x.recommended];
        }),
      ];
    }),
  );
  return [header, ...rows];
}
