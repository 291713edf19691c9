import * as Plot from "@observablehq/plot";
import type { Analysis } from "../../core/analyze.js";
import type { Estimand } from "../../core/types.js";
import { fixed } from "../format.js";
import { shortNames } from "./shortName.js";
import { COLORS, svgFigure } from "./svgFigure.js";

interface SystemRow {
  readonly system: string;
  readonly estimand: Estimand;
  readonly estimate: number;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly method: string;
  readonly letters: string;
}

/**
 * Compact letters from the tie groups: system s gets letter i when it is in group i, so two
 * systems that share a letter cannot be told apart (Piepho's display for overlapping groups).
 */
export function groupLetters(groups: readonly (readonly string[])[], system: string): string {
  return groups
    .map((g, i) => (g.includes(system) ? String.fromCharCode(97 + (i % 26)) : ""))
    .join("");
}

/**
 * Each system's estimate with its own recommended interval, micro and macro side by side;
 * with tie groups (all pairs), the group letters beside each system.
 */
/** The most characters of a system's name its row label shows. */
const NAME_CHARS = 40;

export function systemEstimatesFigure(options: {
  readonly id: string;
  readonly metric: string;
  readonly systems: ReadonlyMap<string, Analysis>;
  readonly groups: Readonly<Partial<Record<Estimand, string[][]>>>;
  readonly levelText: string;
}): string {
  const rows: SystemRow[] = [];
  for (const [system, a] of options.systems) {
    for (const e of ["micro", "macro"] as const) {
      const x = a[e];
      if (!x) continue;
      const i = x.intervals[x.recommended];
      rows.push({
        system,
        estimand: e,
        estimate: x.estimate,
        lower: i?.available ? i.lower : null,
        upper: i?.available ? i.upper : null,
        method: x.recommended,
        letters: groupLetters(options.groups[e] ?? [], system),
      });
    }
  }
  const order = [...options.systems]
    .sort(
      (x, y) =>
        (y[1].micro?.estimate ?? y[1].macro?.estimate ?? 0) -
        (x[1].micro?.estimate ?? x[1].macro?.estimate ?? 0),
    )
    .map(([s]) => s);
  const hasGroups = rows.some((r) => r.letters !== "");
  const withInterval = rows.filter((r) => r.lower !== null);
  const label = (r: SystemRow) => `${r.letters ? `${r.letters} · ` : ""}${r.method}`;
  // Room at the left for the system names (6.5 px a character of the 12 px font), up to 40
  // characters; a longer name is shortened in the middle (whole in the caption).
  const short = shortNames(order, NAME_CHARS);
  const longest = Math.max(...[...short.values()].map((n) => [...n].length));
  const marginLeft = Math.max(110, Math.ceil(16 + 6.5 * longest));
  return svgFigure({
    id: options.id,
    title: `Each system's ${options.metric} with its ${options.levelText} interval`,
    alt: `Interval plot in two panels (micro, macro): one row per system, ordered by the micro estimate; a line spans the system's own recommended interval, a dot marks its estimate, the text names the method${hasGroups ? " after the group letters (systems sharing a letter cannot be told apart)" : ""}.`,
    caption: `${rows.map((r) => `${r.system} ${r.estimand} ${fixed(r.estimate, 3)}${r.lower !== null && r.upper !== null ? ` [${fixed(r.lower, 3)}, ${fixed(r.upper, 3)}]` : ""}`).join("; ")}.${hasGroups ? " Letters: systems that share one cannot be told apart (Holm-adjusted tests of the paired differences)." : " Each system's interval is context; the test is of the paired difference."}`,
    plot: {
      height: 60 + 2 * (26 * order.length + 16),
      marginTop: 16,
      marginLeft,
      marginRight: 120,
      x: { label: `${options.metric} →`, grid: true },
      y: { label: null, domain: order, tickFormat: (n: string) => short.get(n) ?? n },
      fy: { axis: null, domain: ["micro", "macro"] },
      marks: [
        Plot.text(["micro", "macro"], {
          fy: (e: string) => e,
          frameAnchor: "top-left",
          dx: 10 - marginLeft,
          text: (e: string) => e,
          fontWeight: "bold",
        }),
        Plot.ruleY(withInterval, {
          y: "system",
          fy: "estimand",
          x1: "lower",
          x2: "upper",
          stroke: COLORS.accent,
          strokeWidth: 3,
        }),
        Plot.dot(rows, { y: "system", fy: "estimand", x: "estimate", fill: COLORS.accent, r: 4 }),
        Plot.text(withInterval, {
          y: "system",
          fy: "estimand",
          x: "upper",
          dx: 6,
          textAnchor: "start",
          text: label,
          fill: "#1a1a1a",
        }),
      ],
    },
  });
}
