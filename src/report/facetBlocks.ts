import type { FacetInterval } from "../core/facets/facetInterval.js";
import { facetSummary } from "./facetSummary.js";
import { degreesOfFreedom, fixed, percent, significant } from "./format.js";
import type { ReportBlock } from "./reportBlocks.js";

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * A faceted fit's intervals as a report table: the one for a population of judges and
 * wordings first (recommended), then the one for these only — the terminal's lines under a
 * faceted analysis's header.
 */
export function facetIntervalBlocks(fit: FacetInterval): ReportBlock[] {
  const summary = facetSummary(fit);
  const intervals: string[][] = [
    ["", "estimate", "interval", "se", "ν", "method"],
    ...summary.intervals.map((row) => {
      const i = row.estimate.interval;
      return [
        row.recommended ? `**${row.label}** (recommended)` : row.label,
        fixed(row.estimate.estimate, 4),
        `[${fixed(i.lower, 4)}, ${fixed(i.upper, 4)}]`,
        i.se === null ? "" : significant(i.se),
        degreesOfFreedom(i.df),
        row.method,
      ];
    }),
  ];
  return [{ kind: "table", rows: intervals, align: ["l", "r", "l", "r", "r", "l"] }];
}

/**
 * A faceted fit's variance components as report blocks: each with its share of the mean's
 * variance, then the facet that dominates (the terminal's "variance components" lines).
 */
export function facetComponentBlocks(fit: FacetInterval): ReportBlock[] {
  const summary = facetSummary(fit);
  const components: string[][] = [
    ["component", "variance", "share of the mean's variance"],
    ...summary.components.map((row) => [
      row.name,
      `${row.variance.toPrecision(4)}${row.atZero ? " (at 0)" : ""}`,
      row.share === undefined ? "" : percent(row.share, 1),
    ]),
  ];
  return [
    { kind: "text", text: `${capitalised(summary.componentsTitle)}:` },
    { kind: "table", rows: components, align: ["l", "r", "r"] },
    {
      kind: "bullets",
      items: [
        `The largest share of the mean's variance: ${summary.dominant}.`,
        ...(summary.fixedOnly ? [`${capitalised(summary.fixedOnly)}.`] : []),
      ],
    },
  ];
}
