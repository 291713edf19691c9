import * as Plot from "@observablehq/plot";
import type { Estimand } from "../../core/types.js";
import { percent, significant } from "../format.js";
import type { SimulationReport } from "../simulationReport.js";
import { type StudyPoint, studyPoints } from "./coverageStudyPoints.js";
import { COLORS, svgFigure } from "./svgFigure.js";

/**
 * What the widths say on this study: each column's recommended interval with its width, and
 * the narrowest interval of the study with the coverage it paid for that width.
 */
function widthFacts(points: readonly (StudyPoint & { meanWidth: number })[]): string {
  const recommended = points
    .filter((p) => p.recommended)
    .map((p) => `${p.column} ${p.method} ${significant(p.meanWidth, 3)}`);
  const narrowest = points.reduce<(StudyPoint & { meanWidth: number }) | null>(
    (best, p) => (best === null || p.meanWidth < best.meanWidth ? p : best),
    null,
  );
  return [
    recommended.length > 0
      ? `Mean width of the recommended interval: ${recommended.join("; ")}.`
      : "",
    narrowest
      ? `The narrowest is ${narrowest.label} (${significant(narrowest.meanWidth, 3)}), which covered ${percent(narrowest.coverage, 1)}${narrowest.recommended ? "" : ": a narrow interval that misses is no advantage, so read each width next to its coverage"}.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * Mean width of every method at every K (log axis: a bootstrap-t at K = 5 can be a hundred
 * times a Wald interval), in the coverage figure's rows, so coverage is read against its cost.
 */
export function widthFigure(options: {
  readonly id: string;
  readonly report: SimulationReport;
  readonly estimand: Estimand;
}): string {
  const points = studyPoints(options.report, options.estimand);
  const drawn = points.filter(
    (p): p is StudyPoint & { meanWidth: number } => p.meanWidth !== null && p.meanWidth > 0,
  );
  const missing = points.filter((p) => p.meanWidth === null);
  const color = (p: StudyPoint) =>
    p.recommended ? COLORS.accent : p.contrast ? COLORS.muted : "#1a1a1a";
  return svgFigure({
    id: options.id,
    title: `${options.estimand}: mean width of each interval`,
    alt: "Dot plot with a logarithmic x axis: one row per method and column (as in the coverage figure); the dot is at the mean width of the interval over the repetitions. The recommended interval of each column is dark blue, contrasts grey.",
    caption: `${widthFacts(drawn)}${missing.length > 0 ? ` Never available: ${missing.map((p) => p.label).join(", ")}.` : ""}`,
    plot: {
      height: 40 + 18 * points.length,
      marginLeft: 260,
      marginRight: 60,
      x: { type: "log", label: "mean width (log scale) →", grid: true, tickFormat: "~g", inset: 8 },
      y: { label: null, domain: points.map((p) => p.label) },
      marks: [
        Plot.dot(drawn, { y: "label", x: "meanWidth", fill: color, r: 3.5 }),
        Plot.text(drawn, {
          y: "label",
          frameAnchor: "right",
          dx: 56,
          textAnchor: "end",
          text: (p: StudyPoint & { meanWidth: number }) => significant(p.meanWidth, 3),
          fill: color,
        }),
      ],
    },
  });
}
