import * as Plot from "@observablehq/plot";
import type { Estimand } from "../../core/types.js";
import { significant } from "../format.js";
import type { SimulationReport } from "../simulationReport.js";
import { type StudyPoint, studyPoints } from "./coverageStudyPoints.js";
import { COLORS, svgFigure } from "./svgFigure.js";

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
    caption: `${drawn.length} method × column cells${missing.length > 0 ? `; never available: ${missing.map((p) => p.label).join(", ")}` : ""}. A narrow interval that misses is not an advantage: read the width next to the coverage.`,
    plot: {
      height: 40 + 18 * points.length,
      marginLeft: 260,
      marginRight: 60,
      x: { type: "log", label: "mean width (log scale) →", grid: true, tickFormat: "~g" },
      y: { label: null, domain: points.map((p) => p.label) },
      marks: [
        Plot.dot(drawn, { y: "label", x: "meanWidth", fill: color, r: 3.5 }),
        Plot.ruleY(drawn, {
          y: "label",
          x1: (p: StudyPoint & { meanWidth: number }) => p.meanWidth,
          x2: (p: StudyPoint & { meanWidth: number }) => p.meanWidth,
          stroke: color,
        }),
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
