import type { FacetComponent } from "../core/facets/facetCells.js";
import type { FacetEstimate, FacetInterval } from "../core/facets/facetInterval.js";

/** The order and the names the report gives the components. */
const ORDER: readonly (readonly [FacetComponent, string])[] = [
  ["document", "document"],
  ["query", "query within document"],
  ["judge", "judge"],
  ["documentJudge", "document × judge"],
  ["variant", "variant"],
  ["residual", "residual"],
];

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
      ORDER.flatMap(([k]) =>
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

const crossedNames = (fit: FacetInterval) => {
  const { levels } = fit.components;
  return [levels.judges > 1 ? "judges" : null, levels.variants > 1 ? "wordings" : null]
    .filter((x) => x !== null)
    .join(" and ");
};

/** "0.7237 [0.6320, 0.8154]" at four decimals. */
const shown = (e: FacetEstimate) =>
  `${e.estimate.toFixed(4)} [${e.interval.lower.toFixed(4)}, ${e.interval.upper.toFixed(4)}]`;

/**
 * The lines under a faceted analysis's header: with judges or wordings, the recommended
 * interval is for their population (with its ν), beside the one for these only.
 */
export function facetHeaderLines(fit: FacetInterval): string[] {
  if (!fit.population) return [];
  const crossed = crossedNames(fit);
  const df = fit.population.interval.df;
  return [
    `${crossed} drawn from a population (recommended): ${shown(fit.population)}${df === null ? "" : `  ν = ${df.toFixed(2)}`}  REML mean, lmerTest's Satterthwaite ν`,
    `these ${crossed} only (fixed): ${shown(fit.fixed)}  mean of the cell means, CR2 over documents`,
  ];
}

/** The terminal's lines: each component, its share of the mean's variance, and which dominates. */
export function facetComponentsLines(fit: FacetInterval): string[] {
  const c = fit.components;
  const { levels } = c;
  // With reruns the residual is their noise; without, the query × judge (wording) remainder.
  const present = ORDER.filter(([k]) => c.components[k] !== undefined).map(
    ([k, name]): readonly [FacetComponent, string] =>
      k === "residual" && levels.observations > levels.cells ? [k, "residual (trials)"] : [k, name],
  );
  const width = Math.max(...present.map(([, name]) => name.length));
  const share = (k: FacetComponent) =>
    fit.shares[k] === undefined
      ? ""
      : `  ${(100 * (fit.shares[k] as number)).toFixed(1)}% of the mean's variance`;
  const lines = [
    "",
    `variance components (REML, lme4's model; ${levels.documents} documents, ${levels.queries} queries${levels.judges > 1 ? `, ${levels.judges} judges` : ""}${levels.variants > 1 ? `, ${levels.variants} variants` : ""}, ${levels.observations} results)`,
    ...present.map(
      ([k, name]) =>
        `  ${name.padEnd(width)}  ${(c.components[k] as number).toPrecision(4)}${share(k)}${c.boundary.includes(k) ? "  (at 0)" : ""}`,
    ),
    `  the largest share of the mean's variance: ${ORDER.find(([k]) => k === fit.dominant)?.[1] ?? fit.dominant}`,
  ];
  if (!fit.population && (levels.judges > 1 || levels.variants > 1))
    lines.push(`  the intervals above are for these ${crossedNames(fit)} (fixed)`);
  return lines;
}
