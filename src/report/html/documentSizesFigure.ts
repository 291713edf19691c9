import * as Plot from "@observablehq/plot";
import type { Analysis } from "../../core/analyze.js";
import type { DocumentStats } from "../../core/types.js";
import { count, percent } from "../format.js";
import { countLogTick, countTick } from "./countTicks.js";
import { COLORS, svgFigure } from "./svgFigure.js";

/** About 24 bins whose edges are evenly spaced on a log scale from the smallest n_d to the largest. */
export function logEdges(min: number, max: number): number[] {
  const bins = 24;
  const lo = Math.log10(min);
  const hi = Math.log10(max) + 1e-9;
  return Array.from({ length: bins + 1 }, (_, i) => 10 ** (lo + ((hi - lo) * i) / bins));
}

/**
 * Log-spaced edges for counts, moved to half-integers: where log bins are narrower than one
 * result they would leave empty bins between 1, 2, 3 … that look like missing documents.
 */
export function countEdges(min: number, max: number): number[] {
  const edges = logEdges(Math.max(0.5, min - 0.5), max + 0.5).map((e) => Math.round(e - 0.5) + 0.5);
  const unique = [...new Set(edges)];
  if ((unique.at(-1) as number) < max + 0.5) unique.push(max + 0.5);
  return unique;
}

/**
 * How many results each document has, on a log axis (sizes span orders of magnitude), with
 * the largest documents — those whose share of all results the diagnostics report — drawn
 * in the accent colour, so the reader sees where the micro estimate's weight sits.
 */
export function documentSizesFigure(options: {
  readonly id: string;
  readonly stats: DocumentStats;
  readonly analysis: Analysis;
  readonly what: string;
  readonly resultsName: string;
}): string {
  const { stats, analysis: a } = options;
  const sizes = a.diagnostics.sizes;
  const top = Math.max(1, sizes.largestDecileDocuments);
  const order = Array.from(stats.n.keys()).sort(
    (i, j) => (stats.n[j] as number) - (stats.n[i] as number),
  );
  const largest = new Set(order.slice(0, top));
  const topLabel = top === 1 ? "the largest document" : `the ${top} largest documents`;
  const rows = Array.from(stats.n, (n, d) => ({ n, group: largest.has(d) ? topLabel : "others" }));
  const [min, q1, median, q3, max] = sizes.quantiles;
  const share = top === 1 ? sizes.shareLargestDocument : sizes.shareLargestDecile;
  const equal = min === max;
  const bars = equal
    ? [
        Plot.barY([{ n: min, k: a.documents }], {
          x: (d: { n: number }) => String(d.n),
          y: "k",
          fill: COLORS.light,
        }),
      ]
    : [
        Plot.rectY(
          rows,
          Plot.binX<Plot.RectYOptions>(
            { y: "count" },
            {
              x: "n",
              thresholds: countEdges(min as number, max as number),
              fill: "group",
              stroke: "#ffffff",
              inset: 0.5,
            },
          ),
        ),
      ];
  return svgFigure({
    id: options.id,
    title: `${options.resultsName[0]?.toUpperCase()}${options.resultsName.slice(1)} per document${options.what} (log axis)`,
    alt: equal
      ? `Bar: all ${a.documents} documents have ${count(min as number)} ${options.resultsName} each.`
      : `Histogram with a logarithmic x axis: x is n_d, the number of ${options.resultsName} of a document, y the number of documents; the part of each bar that belongs to ${topLabel} is drawn dark, the rest light grey.`,
    caption: `K = ${a.documents} documents, N = ${count(a.results)} ${options.resultsName}; n_d min ${count(min as number)}, q1 ${count(q1 as number)}, median ${count(median as number)}, q3 ${count(q3 as number)}, max ${count(max as number)}. The largest document holds ${percent(sizes.shareLargestDocument)} of all ${options.resultsName}${top > 1 ? `, ${topLabel} (the largest tenth) hold ${percent(sizes.shareLargestDecile)}` : ""}.`,
    plot: {
      height: 240,
      marginTop: 30,
      x: equal
        ? // One bar labelled by its size: a band scale (Plot warns, on stderr and in the
          // figure, when a string that looks like a number meets its default scale).
          { type: "band", label: `${options.resultsName} per document n_d` }
        : {
            type: "log",
            label: `${options.resultsName} per document n_d (log scale) →`,
            tickFormat: countLogTick(max as number),
          },
      y: { label: "↑ documents", grid: true, tickFormat: countTick },
      color: { domain: ["others", topLabel], range: [COLORS.light, COLORS.accent] },
      marks: [
        ...bars,
        Plot.ruleY([0]),
        Plot.text(
          equal ? [] : [`dark: ${topLabel}, ${percent(share)} of all ${options.resultsName}`],
          {
            frameAnchor: "top-right",
            dy: -18,
            fill: COLORS.accent,
            fontWeight: "bold",
          },
        ),
      ],
    },
  });
}
