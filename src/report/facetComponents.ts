import { FACET_COMPONENT_NAMES } from "../core/facets/facetCells.js";
import type { FacetEstimate, FacetInterval } from "../core/facets/facetInterval.js";
import { type FacetComponentRow, facetSummary } from "./facetSummary.js";

/** An estimate and its interval as the JSON gives it. */
function estimateJson(e: FacetEstimate): Record<string, unknown> {
  const { lower, upper, se, df } = e.interval;
  return { estimate: e.estimate, lower, upper, se, df };
}

/**
 * The JSON of a faceted input: `varianceComponents`, the variance of each facet the input has
 * (keys document, query, judge, documentJudge, variant, residual; absent facets left out), and
 * `facets`, the fit beside it: estimator, levels, the interval for a population of judges and
 * wordings (null without them) and for these (fixed), which is recommended, and each
 * component's share of the mean's variance.
 */
export function facetComponentsJson(fit: FacetInterval): {
  varianceComponents: Record<string, number>;
  facets: Record<string, unknown>;
} {
  const c = fit.components;
  return {
    varianceComponents: Object.fromEntries(
      FACET_COMPONENT_NAMES.flatMap(([k]) =>
        c.components[k] === undefined ? [] : [[k, c.components[k] as number]],
      ),
    ),
    facets: {
      estimator: c.estimator,
      levels: c.levels,
      boundary: c.boundary,
      recommended: fit.recommended,
      population: fit.population ? estimateJson(fit.population) : null,
      fixed: estimateJson(fit.fixed),
      shares: fit.shares,
      dominant: fit.dominant,
    },
  };
}

/** "0.7237 [0.6320, 0.8154]" at four decimals. */
const shown = (e: FacetEstimate) =>
  `${e.estimate.toFixed(4)} [${e.interval.lower.toFixed(4)}, ${e.interval.upper.toFixed(4)}]`;

/**
 * The lines under a faceted analysis's header: with judges or wordings, the recommended
 * interval is for their population (with its ν), beside the one for these only.
 */
export function facetHeaderLines(fit: FacetInterval): string[] {
  if (!fit.population) return [];
  return facetSummary(fit).intervals.map((row) => {
    const df = row.estimate.interval.df;
    const nu = row.key === "population" && df !== null ? `  ν = ${df.toFixed(2)}` : "";
    return `${row.label}${row.recommended ? " (recommended)" : ""}: ${shown(row.estimate)}${nu}  ${row.method}`;
  });
}

/** The terminal's lines: each component, its share of the mean's variance, and which dominates. */
export function facetComponentsLines(fit: FacetInterval): string[] {
  const summary = facetSummary(fit);
  const width = Math.max(...summary.components.map((row) => row.name.length));
  const share = (row: FacetComponentRow) =>
    row.share === undefined ? "" : `  ${(100 * row.share).toFixed(1)}% of the mean's variance`;
  return [
    "",
    summary.componentsTitle,
    ...summary.components.map(
      (row) =>
        `  ${row.name.padEnd(width)}  ${row.variance.toPrecision(4)}${share(row)}${row.atZero ? "  (at 0)" : ""}`,
    ),
    `  the largest share of the mean's variance: ${summary.dominant}`,
    ...(summary.fixedOnly ? [`  ${summary.fixedOnly}`] : []),
  ];
}
