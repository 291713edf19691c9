import type { FacetComponent } from "../core/facets/facetCells.js";
import type { VarianceComponents } from "../core/facets/varianceComponents.js";

/** The order and the names the report gives the components. */
const ORDER: readonly (readonly [FacetComponent, string])[] = [
  ["document", "document"],
  ["query", "query within document"],
  ["judge", "judge"],
  ["documentJudge", "document × judge"],
  ["variant", "variant"],
  ["residual", "residual"],
];

/**
 * `varianceComponents` of the JSON report: the variance of each facet the input has (keys
 * document, query, judge, documentJudge, variant, residual; absent facets left out), and the
 * fit beside it (`varianceFit`: estimator, levels, the REML mean and its model-based se).
 */
export function facetComponentsJson(fit: VarianceComponents): Record<string, unknown> {
  return {
    varianceComponents: Object.fromEntries(
      ORDER.flatMap(([k]) => (fit.components[k] === undefined ? [] : [[k, fit.components[k]]])),
    ),
    varianceFit: {
      estimator: fit.estimator,
      model:
        "y ~ 1 + (1|document) + (1|document:query) + (1|judge) + (1|document:judge) + (1|variant), residual = trial (lme4's REML; terms of absent facets left out)",
      boundary: fit.boundary,
      levels: fit.levels,
      mean: fit.mean,
      meanSe: fit.meanSe,
    },
  };
}

/** The terminal's lines: each component, its share of the total, and which dominates. */
export function facetComponentsLines(fit: VarianceComponents): string[] {
  const { levels } = fit;
  // With reruns the residual is their noise; without, the query × judge (variant) remainder.
  const present = ORDER.filter(([k]) => fit.components[k] !== undefined).map(
    ([k, name]): readonly [FacetComponent, string] =>
      k === "residual" && levels.observations > levels.cells ? [k, "residual (trials)"] : [k, name],
  );
  const total = present.reduce((t, [k]) => t + (fit.components[k] as number), 0);
  const share = (v: number) => (total > 0 ? `${((100 * v) / total).toFixed(1)}%` : "—");
  const width = Math.max(...present.map(([, name]) => name.length));
  const lines = [
    "",
    `variance components (REML, lme4's model; ${levels.documents} documents, ${levels.queries} queries${levels.judges > 1 ? `, ${levels.judges} judges` : ""}${levels.variants > 1 ? `, ${levels.variants} variants` : ""}, ${levels.observations} results)`,
    ...present.map(
      ([k, name]) =>
        `  ${name.padEnd(width)}  ${(fit.components[k] as number).toPrecision(4)}  ${share(fit.components[k] as number)}${fit.boundary.includes(k) ? "  (at 0)" : ""}`,
    ),
  ];
  const largest = present.reduce((a, b) =>
    (fit.components[b[0]] as number) > (fit.components[a[0]] as number) ? b : a,
  );
  if (total > 0) lines.push(`  the largest share is ${largest[1]}`);
  if (levels.judges > 1 || levels.variants > 1)
    lines.push(
      `  the intervals above are for these ${[levels.judges > 1 ? "judges" : null, levels.variants > 1 ? "variants" : null].filter((x) => x).join(" and ")} (fixed): each query's mean over them`,
    );
  return lines;
}
