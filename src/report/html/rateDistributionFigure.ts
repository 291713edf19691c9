import * as Plot from "@observablehq/plot";
import type { Analysis } from "../../core/analyze.js";
import type { DocumentStats } from "../../core/types.js";
import { fixed, percent } from "../format.js";
import { COLORS, svgFigure } from "./svgFigure.js";

interface Marker {
  readonly label: string;
  readonly value: number;
}

/** Estimate markers, labelled away from each other so close values stay readable. */
function markerMarks(markers: readonly Marker[], decimals: number): Plot.Markish[] {
  const sorted = [...markers].sort((a, b) => a.value - b.value);
  return sorted.flatMap((m, i) => [
    Plot.ruleX([m.value], { stroke: i === 0 ? COLORS.second : COLORS.accent, strokeWidth: 2 }),
    Plot.text([m], {
      x: "value",
      frameAnchor: "top",
      dy: 4 + 14 * i,
      dx: i === 0 && sorted.length > 1 ? -4 : 4,
      textAnchor: i === 0 && sorted.length > 1 ? "end" : "start",
      text: (d: Marker) => `${d.label} ${fixed(d.value, decimals)}`,
      fill: i === 0 ? COLORS.second : COLORS.accent,
      fontWeight: "bold",
    }),
  ]);
}

/**
 * The distribution of the document rates r_d = s_d/n_d (or means, or mean differences) with
 * the micro and macro estimates marked. For a metric in [0, 1] the bins span [0, 1] so the
 * documents at exactly 0 and 1 fall in the end bins, which are labelled with their counts.
 */
export function rateDistributionFigure(options: {
  readonly id: string;
  readonly stats: DocumentStats;
  readonly analysis: Analysis;
  readonly what: string;
  readonly decimals: number;
}): string {
  const { stats, analysis: a } = options;
  const rates = Array.from(stats.s, (s, d) => s / (stats.n[d] as number));
  const bounded = a.metricKind === "0/1" || a.metricKind === "score in [0, 1]";
  const markers: Marker[] = [
    ...(a.micro ? [{ label: "micro", value: a.micro.estimate }] : []),
    ...(a.macro ? [{ label: "macro", value: a.macro.estimate }] : []),
  ];
  const r = a.diagnostics.rates;
  const zeros = Math.round(r.fractionZero * a.documents);
  const ones = Math.round(r.fractionOne * a.documents);
  const ends = bounded
    ? [
        ...(zeros > 0 ? [{ x: 0.025, text: `${zeros} at 0` }] : []),
        ...(ones > 0 ? [{ x: 0.975, text: `${ones} at 1` }] : []),
      ]
    : [];
  const [min, q1, median, q3, max] = r.quantiles.map((q) => fixed(q, 2));
  const unit = a.binary ? "rate" : "mean";
  const atBounds = bounded
    ? r.fractionZero === 0 && r.fractionOne === 0
      ? "No document is at exactly 0 or 1."
      : `${[
          r.fractionZero > 0
            ? `${percent(r.fractionZero, 1)} of documents are at exactly 0`
            : "no document is at exactly 0",
          r.fractionOne > 0 ? `${percent(r.fractionOne, 1)} at exactly 1` : "none at exactly 1",
        ]
          .join(" and ")
          .replace(/^n/, "N")}.`
    : "";
  return svgFigure({
    id: options.id,
    title: `Distribution of the ${a.documents} document ${unit}s r_d${options.what}`,
    alt: `Histogram: x is the ${unit} of a document's results (r_d = s_d/n_d), y the number of documents in each bin; vertical lines mark the estimates (${markers.map((m) => `${m.label} ${fixed(m.value, options.decimals)}`).join(", ")}).`,
    caption: `r_d: min ${min}, q1 ${q1}, median ${median}, q3 ${q3}, max ${max}. ${atBounds}${markers.length === 2 ? ` Micro weights each document by its n_d, macro counts each document once.` : ""}`,
    plot: {
      height: 260,
      marginTop: 40,
      x: {
        label: `document ${unit} r_d →`,
        ...(bounded ? { domain: [0, 1] } : {}),
      },
      y: { label: "↑ documents", grid: true },
      marks: [
        Plot.rectY(
          rates,
          Plot.binX<Plot.RectYOptions>(
            { y: "count" },
            {
              // The last bin is [0.95, 1]: binning 1 just below it keeps the documents at exactly 1.
              x: bounded ? (d: number) => Math.min(d, 1 - 1e-12) : (d: number) => d,
              ...(bounded ? { thresholds: Array.from({ length: 21 }, (_, i) => i / 20) } : {}),
              fill: COLORS.light,
              stroke: "#ffffff",
              inset: 0.5,
            },
          ),
        ),
        Plot.ruleY([0]),
        ...markerMarks(markers, options.decimals),
        Plot.text(ends, { x: "x", frameAnchor: "bottom", dy: -4, text: "text", fill: "#1a1a1a" }),
      ],
    },
  });
}
