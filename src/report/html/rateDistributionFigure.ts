import * as Plot from "@observablehq/plot";
import type { Analysis } from "../../core/analyze.js";
import type { DocumentStats } from "../../core/types.js";
import { fixed, percent } from "../format.js";
import { countTick } from "./countTicks.js";
import { COLORS, ESTIMAND_COLORS, svgFigure } from "./svgFigure.js";

interface Marker {
  readonly label: "micro" | "macro";
  readonly value: number;
}

/**
 * Estimate markers in their estimand's colour, the smaller one labelled to its left and the
 * larger to its right (one line lower), so close values stay readable.
 */
function markerMarks(
  markers: readonly Marker[],
  decimals: number,
  domain: readonly [number, number],
): Plot.Markish[] {
  const sorted = [...markers].sort((a, b) => a.value - b.value);
  const [lo, hi] = domain;
  return sorted.flatMap((m, i) => {
    // Near an end of the axis (an estimate of 0 or 1) the label goes inward, or it is cut off.
    const at = (m.value - lo) / (hi - lo || 1);
    const left = at > 0.85 || (at >= 0.15 && i === 0 && sorted.length > 1);
    return [
      Plot.ruleX([m.value], { stroke: ESTIMAND_COLORS[m.label], strokeWidth: 2 }),
      Plot.text([m], {
        x: "value",
        frameAnchor: "top",
        dy: -30 + 14 * i,
        dx: left ? -4 : 4,
        textAnchor: left ? "end" : "start",
        text: (d: Marker) => `${d.label} ${fixed(d.value, decimals)}`,
        fill: ESTIMAND_COLORS[m.label],
        fontWeight: "bold",
      }),
    ];
  });
}

/** The smallest and largest of the values (a loop: spreading 10⁵ values overflows the stack). */
function extent(values: readonly number[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return [lo, hi];
}

/**
 * About 20 bins of a round width w (1, 2 or 5 × 10^k) with edges at (j + ½)·w, so 0 is the
 * middle of a bin and the ties of a paired comparison are not split across two bars.
 */
function centredBins(values: readonly number[]): { edges: number[]; width: number } {
  // A loop, not Math.min(...values): spreading 10⁵ documents' values overflows the stack.
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const raw = (hi - lo) / 20 || Math.abs(hi) / 10 || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const width = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(lo / width - 0.5);
  const last = Math.ceil(hi / width + 0.5);
  const edges = Array.from({ length: last - first + 1 }, (_, j) => (first + j + 0.5) * width);
  return { edges, width };
}

/**
 * The distribution of the document rates r_d = s_d/n_d (or means, or mean differences) with
 * the micro and macro estimates marked. For a metric in [0, 1] the bins span [0, 1]; the
 * documents at exactly 0 and 1 are drawn dark inside the end bins and counted above them, so
 * they are not mistaken for documents merely near the bounds.
 */
export function rateDistributionFigure(options: {
  readonly id: string;
  readonly stats: DocumentStats;
  readonly analysis: Analysis;
  readonly what: string;
  readonly decimals: number;
  /** Paired differences: the documents at exactly 0 (ties) are drawn dark and counted. */
  readonly ties?: boolean;
}): string {
  const { stats, analysis: a } = options;
  const rates = Array.from(stats.s, (s, d) => s / (stats.n[d] as number));
  const bounded = a.metricKind === "0/1" || a.metricKind === "score in [0, 1]";
  const ties = options.ties === true && !bounded;
  const exact = ties ? "tie (exactly 0)" : "at exactly 0 or 1";
  const between = "between";
  const rows = rates.map((rate) => ({
    rate,
    group: (bounded && (rate === 0 || rate === 1)) || (ties && rate === 0) ? exact : between,
  }));
  const tieCount = rows.filter((r) => r.group === exact).length;
  const tieBins = ties ? centredBins(rates) : null;
  const markers: Marker[] = [
    ...(a.micro ? [{ label: "micro" as const, value: a.micro.estimate }] : []),
    ...(a.macro ? [{ label: "macro" as const, value: a.macro.estimate }] : []),
  ];
  const r = a.diagnostics.rates;
  const zeros = Math.round(r.fractionZero * a.documents);
  const ones = Math.round(r.fractionOne * a.documents);
  // The end bins' heights ([0, 0.05) and [0.95, 1]), so their labels sit just above them.
  const firstBin = rates.filter((x) => x < 0.05).length;
  const lastBin = rates.filter((x) => x >= 0.95).length;
  // The height of the bin [−w/2, w/2) that holds the ties, so their label sits above it.
  const tieBin = tieBins
    ? rates.filter((x) => x >= -tieBins.width / 2 && x < tieBins.width / 2).length
    : 0;
  const ends = ties
    ? tieCount > 0
      ? [{ x: 0, y: tieBin, text: `${tieCount} ties at 0`, anchor: "middle" }]
      : []
    : bounded
      ? [
          ...(zeros > 0 ? [{ x: 0, y: firstBin, text: `${zeros} at 0`, anchor: "start" }] : []),
          ...(ones > 0 ? [{ x: 1, y: lastBin, text: `${ones} at 1`, anchor: "end" }] : []),
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
    alt: `Histogram: x is the ${unit} of a document's results (r_d = s_d/n_d), y the number of documents in each bin${ends.length > 0 ? (ties ? "; the ties (documents whose summed difference is exactly 0) are the dark part of the bin around 0, counted above it" : "; the documents at exactly 0 or 1 are the dark parts of the end bins, counted above them") : ""}; vertical lines mark the estimates (${markers.map((m) => `${m.label} ${fixed(m.value, options.decimals)}${m.label === "micro" ? " in dark blue" : " in orange"}`).join(", ")}).`,
    caption: `r_d: min ${min}, q1 ${q1}, median ${median}, q3 ${q3}, max ${max}. ${atBounds}${markers.length === 2 ? ` Micro weights each document by its n_d, macro counts each document once.` : ""}`,
    plot: {
      height: 270,
      marginTop: 44,
      x: {
        label: `document ${unit} r_d →`,
        ...(bounded ? { domain: [0, 1] } : {}),
      },
      y: { label: "↑ documents", grid: true, nice: true, tickFormat: countTick },
      color: { domain: [between, exact], range: [COLORS.light, "#333333"] },
      marks: [
        Plot.rectY(
          rows,
          Plot.binX<Plot.RectYOptions>(
            { y: "count" },
            {
              // The last bin is [0.95, 1]: binning 1 just below it keeps the documents at exactly 1.
              x: bounded
                ? (d: { rate: number }) => Math.min(d.rate, 1 - 1e-12)
                : (d: { rate: number }) => d.rate,
              ...(bounded
                ? { thresholds: Array.from({ length: 21 }, (_, i) => i / 20) }
                : tieBins
                  ? { thresholds: tieBins.edges }
                  : {}),
              fill: "group",
              order: [between, exact],
              stroke: "#ffffff",
              inset: 0.5,
            },
          ),
        ),
        Plot.ruleY([0]),
        ...markerMarks(
          markers,
          options.decimals,
          bounded ? [0, 1] : extent([...rates, ...markers.map((m) => m.value)]),
        ),
        ...(["start", "middle", "end"] as const).map((anchor) =>
          Plot.text(
            ends.filter((e) => e.anchor === anchor),
            { x: "x", y: "y", dy: -8, textAnchor: anchor, text: "text", fill: "#1a1a1a" },
          ),
        ),
      ],
    },
  });
}
