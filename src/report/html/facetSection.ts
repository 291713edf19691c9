import type { FacetInterval } from "../../core/facets/facetInterval.js";
import { facetSummary } from "../facetSummary.js";
import { degreesOfFreedom, fixed, percent, significant } from "../format.js";
import { escapeHtml } from "./escapeHtml.js";
import { htmlTable } from "./htmlTable.js";
import { levelText } from "./intervalTables.js";

/**
 * A faceted fit on a page: the interval for a population of judges and wordings first
 * (recommended), the one for these only, then the variance components with their shares of
 * the mean's variance and the facet that dominates — the terminal's and Markdown's content.
 * Rows carry data-interval / data-component and cells data-field, for readers and tests.
 */
export function facetSection(
  fit: FacetInterval,
  options: {
    readonly id: string;
    readonly heading: string;
    readonly key: Readonly<Record<string, string>>;
  },
): string {
  const summary = facetSummary(fit);
  const intervals = htmlTable({
    header: [
      "",
      { text: "estimate", numeric: true },
      { text: `${levelText(fit.level)} lower`, numeric: true },
      { text: "upper", numeric: true },
      { text: "se", numeric: true },
      { text: "ν", numeric: true },
      "method",
    ],
    rows: summary.intervals.map((row) => {
      const i = row.estimate.interval;
      return {
        ...(row.recommended ? { className: "recommended" } : {}),
        data: { ...options.key, interval: row.key },
        cells: [
          `${row.label}${row.recommended ? " (recommended)" : ""}`,
          { text: fixed(row.estimate.estimate, 4), numeric: true, field: "estimate" },
          { text: fixed(i.lower, 4), numeric: true, field: "lower" },
          { text: fixed(i.upper, 4), numeric: true, field: "upper" },
          { text: i.se === null ? "" : significant(i.se), numeric: true, field: "se" },
          { text: degreesOfFreedom(i.df), numeric: true, field: "df" },
          { text: row.method, field: "method" },
        ],
      };
    }),
    data: { ...options.key, table: "facet-intervals" },
  });
  const components = htmlTable({
    caption: summary.componentsTitle,
    header: [
      "component",
      { text: "variance", numeric: true },
      { text: "share of the mean's variance", numeric: true },
    ],
    rows: summary.components.map((row) => ({
      ...(row.key === fit.dominant ? { className: "recommended" } : {}),
      data: { ...options.key, component: row.key },
      cells: [
        `${row.name}${row.atZero ? " (at 0)" : ""}`,
        { text: row.variance.toPrecision(4), numeric: true, field: "variance" },
        {
          text: row.share === undefined ? "" : percent(row.share, 1),
          numeric: true,
          field: "share",
        },
      ],
    })),
    data: { ...options.key, table: "variance-components" },
  });
  const notes = [
    `The largest share of the mean's variance: ${summary.dominant}.`,
    ...(summary.fixedOnly ? [`${summary.fixedOnly.replace("above", "here")}.`] : []),
  ];
  return `<section id="${escapeHtml(options.id)}" class="facets">
<h3>${escapeHtml(options.heading)}</h3>
${intervals}
${components}
<p class="dominant">${escapeHtml(notes.join(" "))}</p>
</section>`;
}
