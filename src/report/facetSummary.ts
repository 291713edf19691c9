import {
  FACET_COMPONENT_NAMES,
  type FacetComponent,
  facetComponentName,
} from "../core/facets/facetCells.js";
import type { FacetEstimate, FacetInterval } from "../core/facets/facetInterval.js";

/** One of the two intervals of a faceted fit, as every report shows it. */
export interface FacetIntervalRow {
  readonly key: "population" | "fixed";
  /** "judges drawn from a population", "these judges only (fixed)". */
  readonly label: string;
  readonly recommended: boolean;
  readonly estimate: FacetEstimate;
  /** How it was computed, in one phrase. */
  readonly method: string;
}

/** One variance component with its share of the mean's variance. */
export interface FacetComponentRow {
  readonly key: FacetComponent;
  readonly name: string;
  readonly variance: number;
  /** Share of the variance of the mean (undefined for a component without a term there). */
  readonly share: number | undefined;
  /** REML put it on the boundary (estimated at 0). */
  readonly atZero: boolean;
}

/** What the terminal, Markdown and HTML reports show of a faceted fit, in that order. */
export interface FacetSummary {
  /** "judges", "wordings", "judges and wordings", or "" without crossed facets. */
  readonly crossed: string;
  /** Population first (recommended) when judges or wordings vary, then fixed. */
  readonly intervals: readonly FacetIntervalRow[];
  /** "variance components (REML, lme4's model; 98 documents, …)". */
  readonly componentsTitle: string;
  readonly components: readonly FacetComponentRow[];
  /** The name of the component with the largest share of the mean's variance. */
  readonly dominant: string;
  /** With several judges or wordings but no population interval: what the intervals are for. */
  readonly fixedOnly: string | null;
}

/**
 * "judges", "wordings" or "judges and wordings": the facets crossed with documents, from the
 * counts of a fit's levels or a simulated design.
 */
export function crossedNames(levels: {
  readonly judges: number;
  readonly variants: number;
}): string {
  return [levels.judges > 1 ? "judges" : null, levels.variants > 1 ? "wordings" : null]
    .filter((x) => x !== null)
    .join(" and ");
}

const same = (a: FacetEstimate, b: FacetEstimate) =>
  a.estimate === b.estimate &&
  a.interval.lower === b.interval.lower &&
  a.interval.upper === b.interval.upper;

/**
 * How the population interval was made (facetInterval's union of the REML and the spread
 * intervals): the estimate, se and ν are the wider one's; if the other reaches further, the
 * bounds were widened to cover it.
 */
export function populationMethod(fit: FacetInterval, crossed: string): string {
  const population = fit.population;
  if (population && fit.spread && !fit.reml)
    return `mean of the cell means, CR2 + the spread of the ${crossed}' means, Satterthwaite ν (no REML interval: the fit has no residual variance, so its ν is not defined)`;
  if (!population || !fit.reml || !fit.spread) return "";
  const fromReml =
    population.estimate === fit.reml.estimate &&
    population.interval.se === fit.reml.interval.se &&
    population.interval.df === fit.reml.interval.df;
  const wider = fromReml ? fit.reml : fit.spread;
  const text = fromReml
    ? "REML mean, lmerTest's Satterthwaite ν"
    : `mean of the cell means, CR2 + the spread of the ${crossed}' means, Satterthwaite ν`;
  return same(population, wider)
    ? text
    : `${text}; bounds widened to cover the ${fromReml ? "spread" : "REML"} interval`;
}

/** The intervals, components and dominant facet of a faceted fit (terminal, Markdown, HTML). */
export function facetSummary(fit: FacetInterval): FacetSummary {
  const c = fit.components;
  const { levels } = c;
  const crossed = crossedNames(fit.components.levels);
  const intervals: FacetIntervalRow[] = [];
  if (fit.population)
    intervals.push({
      key: "population",
      label: `${crossed} drawn from a population`,
      recommended: fit.recommended === "population",
      estimate: fit.population,
      method: populationMethod(fit, crossed),
    });
  intervals.push({
    key: "fixed",
    label: crossed ? `these ${crossed} only (fixed)` : "documents only",
    recommended: fit.recommended === "fixed",
    estimate: fit.fixed,
    method: "mean of the cell means, CR2 over documents",
  });
  // With reruns the residual is their noise; without, the query × judge (wording) remainder.
  const components = FACET_COMPONENT_NAMES.filter(([k]) => c.components[k] !== undefined).map(
    ([k, name]): FacetComponentRow => ({
      key: k,
      name: k === "residual" && levels.observations > levels.cells ? "residual (trials)" : name,
      variance: c.components[k] as number,
      share: fit.shares[k],
      atZero: c.boundary.includes(k),
    }),
  );
  return {
    crossed,
    intervals,
    componentsTitle: `variance components (REML, lme4's model; ${levels.documents} documents, ${levels.queries} queries${levels.judges > 1 ? `, ${levels.judges} judges` : ""}${levels.variants > 1 ? `, ${levels.variants} variants` : ""}, ${levels.observations} results)`,
    components,
    dominant: facetComponentName(fit.dominant),
    fixedOnly:
      !fit.population && crossed ? `the intervals above are for these ${crossed} (fixed)` : null,
  };
}
