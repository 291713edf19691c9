import * as Plot from "@observablehq/plot";
import type { Comparison } from "../../core/compare.js";
import type { DocumentStats } from "../../core/types.js";
import { count, fixed, percent } from "../format.js";
import { countLogTick } from "./countTicks.js";
import { shortNames } from "./shortName.js";
import { COLORS, svgFigure } from "./svgFigure.js";

interface DocumentPoint {
  readonly doc: string;
  readonly n: number;
  readonly mean: number;
  readonly kind: string;
}

/**
 * The per-document differences b − a: x the mean difference per query in the document
 * (s_d/n_d), y the document's number of paired queries on a log axis, dot area by n_d (its
 * weight in micro). Ties — a summed difference of exactly 0 — are hollow grey rings, so the
 * zeros that dominate paired data stay visible instead of hiding under one bar.
 */
export function pairedDifferencesFigure(options: {
  readonly id: string;
  readonly comparison: Comparison;
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly decimals: number;
}): string {
  const { comparison: c, stats } = options;
  const tieLabel = "tie (summed difference 0)";
  const bHigher = `${c.b} higher`;
  const aHigher = `${c.a} higher`;
  const points: DocumentPoint[] = Array.from(stats.s, (s, d) => ({
    doc: stats.ids[d] as string,
    n: stats.n[d] as number,
    mean: s / (stats.n[d] as number),
    kind: s === 0 ? tieLabel : s > 0 ? bHigher : aHigher,
  }));
  const ties = points.filter((p) => p.kind === tieLabel).length;
  const b = points.filter((p) => p.kind === bHigher).length;
  const a = points.length - ties - b;
  const d = c.difference;
  const short = shortNames([c.a, c.b], 30);
  const markers = [
    ...(d.micro ? [{ label: "micro", value: d.micro.estimate }] : []),
    ...(d.macro ? [{ label: "macro", value: d.macro.estimate }] : []),
  ].sort((x, y) => x.value - y.value);
  const tied = points.filter((p) => p.kind === tieLabel);
  const untied = points.filter((p) => p.kind !== tieLabel);
  return svgFigure({
    id: options.id,
    title: `Per-document differences ${c.b} − ${c.a} in ${options.metric}`,
    alt: `Scatter plot: one circle per document; x is the document's mean difference ${c.b} − ${c.a} per query, y its number of paired queries (log scale), circle area grows with that number. Ties are hollow grey rings on the line x = 0; documents where ${c.b} is higher are dark blue, where ${c.a} is higher dark orange. A black vertical line marks 0, green ones the estimates (micro dashed, macro solid: ${markers.map((m) => `${m.label} ${fixed(m.value, options.decimals)}`).join(", ")}).`,
    caption: `${d.documents} documents, ${count(d.results)} paired queries: ${ties} ties (${percent(c.ties)}), ${b} with ${c.b} higher, ${a} with ${c.a} higher${c.queriesDiffering === null ? "" : `; ${percent(c.queriesDiffering, 1)} of queries differ`}. A document's weight in micro is its number of queries.`,
    plot: {
      height: 300,
      marginTop: 40,
      // Inset: the largest circles at the extremes stay inside the frame.
      x: {
        // Both names fit on the 760 px axis (the caption has them whole).
        label: `mean difference ${short.get(c.b)} − ${short.get(c.a)} per query in the document →`,
        grid: true,
        inset: 12,
      },
      y: {
        type: "log",
        label: "↑ paired queries in the document (log)",
        grid: true,
        tickFormat: countLogTick(Math.max(...points.map((p) => p.n))),
      },
      r: { range: [2, 12] },
      color: {
        domain: [aHigher, tieLabel, bHigher],
        range: [COLORS.second, COLORS.muted, COLORS.accent],
      },
      marks: [
        Plot.ruleX([0], { stroke: "#1a1a1a" }),
        ...markers.flatMap((m, i) => [
          Plot.ruleX([m.value], {
            stroke: COLORS.third,
            strokeDasharray: m.label === "micro" ? "4 3" : "1 0",
          }),
          Plot.text([m], {
            x: "value",
            frameAnchor: "top",
            dy: -30 + 14 * i,
            // The smaller estimate is labelled to its left, the larger to its right.
            dx: i === 0 && markers.length > 1 ? -4 : 4,
            textAnchor: i === 0 && markers.length > 1 ? "end" : "start",
            text: (x: { label: string; value: number }) =>
              `${x.label} ${fixed(x.value, options.decimals)}`,
            fill: COLORS.third,
            fontWeight: "bold",
          }),
        ]),
        Plot.dot(untied, {
          x: "mean",
          y: "n",
          r: "n",
          fill: "kind",
          fillOpacity: 0.75,
          stroke: "#ffffff",
          strokeWidth: 0.5,
        }),
        Plot.dot(tied, {
          x: "mean",
          y: "n",
          r: "n",
          stroke: "kind",
          fill: "none",
          strokeWidth: 1.5,
        }),
        Plot.text([`${ties} ties at 0`], {
          frameAnchor: "bottom-left",
          dx: 4,
          dy: -4,
          fill: COLORS.muted,
        }),
      ],
    },
  });
}
