import * as Plot from "@observablehq/plot";
import type { SizeStrataDesign } from "../../core/designs/sizeStrataDesign.js";
import { plural } from "../../core/plural.js";
import type { DocumentStats } from "../../core/types.js";
import { count, percent } from "../format.js";
import { countLogTick, countTick } from "./countTicks.js";
import { countEdges } from "./documentSizesFigure.js";
import { COLORS, svgFigure } from "./svgFigure.js";

/**
 * The census's results per document on a log axis, split at the size cutoff: the large
 * stratum (more than the cutoff) dark, the small one light, the cutoff as a vertical line.
 */
export function strataSizesFigure(options: {
  readonly id: string;
  readonly census: DocumentStats;
  readonly design: SizeStrataDesign;
}): string {
  const { census, design } = options;
  const [large, small] = design.strata;
  const largeLabel = `large (n_d > ${design.cutoff})`;
  const smallLabel = `small (n_d ≤ ${design.cutoff})`;
  const rows = Array.from(census.n, (n) => ({
    n,
    stratum: n > design.cutoff ? largeLabel : smallLabel,
  }));
  const min = census.n.reduce((m, n) => Math.min(m, n), Number.POSITIVE_INFINITY);
  const max = census.n.reduce((m, n) => Math.max(m, n), 0);
  return svgFigure({
    id: options.id,
    title: `Results per document in the census, split at the cutoff ${design.cutoff}`,
    alt: `Histogram with a logarithmic x axis: x is n_d, the results of a document, y the number of documents; documents of the large stratum are dark blue, of the small stratum light grey; a vertical line marks the cutoff ${design.cutoff}.`,
    caption: `${design.population} documents, ${count(design.results)} results: large ${plural(large.documents.length, "document")}${large.documents.length === 1 ? " (taken whole)" : ""} holding ${percent(large.results / design.results)} of the results, small ${small.documents.length}${small.documents.length === 1 ? " (taken whole)" : ""} holding ${percent(small.results / design.results)}. The cutoff ${design.cutoff} was ${design.cutoffProposed ? "proposed: the smallest predicted micro se under Neyman" : "given"}.`,
    plot: {
      height: 240,
      marginTop: 30,
      x: {
        type: "log",
        label: "results per document n_d (log scale) →",
        tickFormat: countLogTick(max),
      },
      y: { label: "↑ documents", grid: true, tickFormat: countTick },
      color: { domain: [smallLabel, largeLabel], range: [COLORS.light, COLORS.accent] },
      marks: [
        Plot.rectY(
          rows,
          Plot.binX<Plot.RectYOptions>(
            { y: "count" },
            {
              x: "n",
              thresholds: countEdges(min, max),
              fill: "stratum",
              stroke: "#ffffff",
              inset: 0.5,
            },
          ),
        ),
        Plot.ruleY([0]),
        // Large is n_d > cutoff: the line sits half a result above it, between the strata.
        Plot.ruleX([design.cutoff + 0.5], { stroke: COLORS.second, strokeWidth: 2 }),
        Plot.text([`cutoff ${design.cutoff}`], {
          x: design.cutoff + 0.5,
          frameAnchor: "top",
          dy: -18,
          fill: COLORS.second,
          fontWeight: "bold",
        }),
      ],
    },
  });
}
