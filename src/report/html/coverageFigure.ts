import * as Plot from "@observablehq/plot";
import type { Estimand } from "../../core/types.js";
import { fixed, levelPercent, percent } from "../format.js";
import type { SimulationReport } from "../simulationReport.js";
import { type StudyPoint, studyColumnName, studyPoints } from "./coverageStudyPoints.js";
import { COLORS, svgFigure } from "./svgFigure.js";

const color = (p: StudyPoint) =>
  p.recommended ? COLORS.accent : p.contrast ? COLORS.muted : "#1a1a1a";

/**
 * Coverage of every method at every K with ±1.96 Monte-Carlo se bars (the exact bound where all
 * or none covered) and the nominal level as a vertical line; the recommended interval of each K
 * dark blue, contrasts grey.
 */
export function coverageFigure(options: {
  readonly id: string;
  readonly report: SimulationReport;
  readonly estimand: Estimand;
}): string {
  const { report, estimand } = options;
  const points = studyPoints(report, estimand);
  const columns = report.studies.map(studyColumnName);
  const recommended = points
    .filter((p) => p.recommended)
    .sort((a, b) => columns.indexOf(a.column) - columns.indexOf(b.column));
  return svgFigure({
    id: options.id,
    title: `${estimand}: coverage of each interval, nominal ${levelPercent(report.level)}`,
    alt: `Dot plot: one row per method and ${report.studies[0]?.design.kind === "two-stage" ? "m" : "K"}; a dot marks the share of repetitions whose interval covered the census value ${fixed(report.truth[estimand], 4)}, a bar ±1.96 Monte-Carlo standard errors (from the exact one-sided 95% bound where every repetition covered or none did); a vertical line marks the nominal ${levelPercent(report.level)}. The recommended interval of each column is dark blue, contrasts grey.`,
    caption: `Recommended: ${recommended.map((p) => `${p.column} ${p.method} ${percent(p.coverage, 1)}`).join("; ") || "none"}. ${report.studies.map((s) => `${studyColumnName(s)}: ${s.reps} repetitions`).join(", ")}; an unavailable interval counts as a miss.`,
    plot: {
      height: 40 + 18 * points.length,
      marginLeft: 260,
      marginRight: 60,
      x: { label: "coverage →", domain: [0, 1], tickFormat: (x: number) => percent(x), grid: true },
      y: { label: null, domain: points.map((p) => p.label) },
      marks: [
        Plot.ruleX([report.level], { stroke: COLORS.second, strokeWidth: 2 }),
        Plot.text([`nominal ${levelPercent(report.level)}`], {
          x: report.level,
          frameAnchor: "top",
          dy: -14,
          textAnchor: "end",
          fill: COLORS.second,
          fontWeight: "bold",
        }),
        Plot.ruleY(points, {
          y: "label",
          x1: (p: StudyPoint) => p.bar[0],
          x2: (p: StudyPoint) => p.bar[1],
          stroke: color,
          strokeWidth: 2,
        }),
        Plot.dot(points, { y: "label", x: "coverage", fill: color, r: 3.5 }),
        Plot.text(points, {
          y: "label",
          frameAnchor: "right",
          dx: 56,
          textAnchor: "end",
          text: (p: StudyPoint) => percent(p.coverage, 1),
          fill: color,
        }),
      ],
    },
  });
}
