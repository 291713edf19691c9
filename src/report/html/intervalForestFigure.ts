import * as Plot from "@observablehq/plot";
import type { AvailableInterval } from "../../core/types.js";
import { degreesOfFreedom, fixed } from "../format.js";
import type { MethodRow } from "./methodRows.js";
import { COLORS, svgFigure } from "./svgFigure.js";

/** "ν = 39.27", "z" (normal quantile) or "B = 9999" (a bootstrap: no ν), beside each interval. */
export function sideLabel(interval: AvailableInterval): string {
  if (interval.resampling) return `B = ${interval.resampling.replicates}`;
  if (interval.q === null) return "";
  return interval.df === null ? "z" : `ν = ${degreesOfFreedom(interval.df)}`;
}

function rowLabel(row: MethodRow): string {
  const tag = {
    recommended: " (recommended)",
    withheld: " (not recommended)",
    contrast: " (contrast)",
    also: "",
  }[row.role];
  return `${row.estimand} · ${row.method}${tag}`;
}

/**
 * Every interval of the analysis as a horizontal bar around its estimate: the recommended
 * one first and thick, the contrasts grey (they are there to show the mistake), ν beside
 * each; an unavailable interval keeps its row and says so.
 */
export function intervalForestFigure(options: {
  readonly id: string;
  readonly rows: readonly MethodRow[];
  readonly levelText: string;
  readonly decimals: number;
  readonly what: string;
}): string {
  const labelled = options.rows.map((r) => ({ ...r, label: rowLabel(r) }));
  const available = labelled.filter((r) => r.interval.available) as (MethodRow & {
    label: string;
    interval: AvailableInterval;
  })[];
  const missing = labelled.filter((r) => !r.interval.available);
  const color = (r: MethodRow) =>
    r.role === "recommended" ? COLORS.accent : r.role === "contrast" ? COLORS.muted : "#1a1a1a";
  const recommended = labelled.filter((r) => r.role === "recommended");
  const withheld = labelled.filter((r) => r.role === "withheld");
  const bounds = (r: MethodRow) =>
    r.interval.available
      ? `${r.estimand} ${r.method} [${fixed(r.interval.lower, options.decimals)}, ${fixed(r.interval.upper, options.decimals)}]`
      : `${r.estimand} ${r.method} unavailable`;
  return svgFigure({
    id: options.id,
    title: `Every ${options.levelText} interval${options.what}, recommended first`,
    alt: `Interval plot: one row per estimand and method; a horizontal line spans each interval, a dot marks the estimate, the text at the right end gives ν (or z for a normal quantile, B for a bootstrap). Recommended intervals are thick and dark blue, contrasts grey.${withheld.length > 0 ? ` The first row of ${withheld.map((r) => r.estimand).join(" and ")} is marked not recommended and drawn like the others.` : ""}${missing.length > 0 ? ` Unavailable: ${missing.map((m) => m.label).join(", ")}.` : ""}`,
    caption: `${recommended.length > 0 ? `Recommended: ${recommended.map(bounds).join("; ")}. ` : ""}${withheld.length > 0 ? `No interval recommended for ${withheld.map((r) => r.estimand).join(" or ")} (${withheld[0]?.withheld}); shown first, not recommended: ${withheld.map(bounds).join("; ")}. ` : ""}Contrasts are shown to explain the mistake, not to use.`,
    plot: {
      height: 40 + 22 * labelled.length,
      // Room for the longest row label ("macro · t-differing (not recommended)") at about
      // 6.5 px a character of the 12 px font (6.3 measured in chromium), so none is cut off.
      marginLeft: Math.max(230, 12 + 6.5 * Math.max(...labelled.map((r) => r.label.length))),
      marginRight: 90,
      x: { label: `${options.levelText} interval →`, grid: true },
      y: { label: null, domain: labelled.map((r) => r.label) },
      marks: [
        Plot.ruleY(available, {
          y: "label",
          x1: (r) => r.interval.lower,
          x2: (r) => r.interval.upper,
          stroke: color,
          strokeWidth: (r: MethodRow) => (r.role === "recommended" ? 4 : 2),
        }),
        Plot.dot(available, { y: "label", x: "estimate", fill: color, r: 3.5 }),
        Plot.text(available, {
          y: "label",
          x: (r) => r.interval.upper,
          dx: 6,
          textAnchor: "start",
          text: (r) => sideLabel(r.interval),
          fill: color,
        }),
        Plot.text(missing, {
          y: "label",
          frameAnchor: "left",
          dx: 4,
          textAnchor: "start",
          text: () => "unavailable (reason in the table)",
          fill: COLORS.muted,
        }),
      ],
    },
  });
}
