import type { FacetCells, FacetComponent } from "./facetCells.js";
import type { FacetLayout } from "./facetLayout.js";

/**
 * How much each component contributes to the variance of the mean of the cell means
 * m = (1/C) Σ_c ȳ_c: var(m) = Σ_k σ²_k Σ_ℓ (C_ℓ / C)² + σ² Σ_c 1/(C² n_c), where C_ℓ counts the
 * cells at level ℓ of facet k (a document, a query, a judge, …). Exact for that mean and equal to
 * var(μ̂) on balanced designs; the shares say which facet to buy more of.
 */
export function meanVarianceTerms(
  layout: FacetLayout,
  components: Partial<Record<FacetComponent, number>>,
): Partial<Record<FacetComponent, number>> {
  const { cells } = layout;
  const total = layout.cellCount;
  const levelWeight = (key: (c: number) => number): number => {
    const counts = new Map<number, number>();
    for (let c = 0; c < total; c++) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
    let sum = 0;
    for (const count of counts.values()) sum += (count / total) ** 2;
    return sum;
  };
  const judge = cells.judge as FacetCells["judge"];
  const keys: Record<Exclude<FacetComponent, "residual">, (c: number) => number> = {
    document: (c) => cells.document[c] as number,
    query: (c) => cells.query[c] as number,
    judge: (c) => (judge ? (judge[c] as number) : 0),
    documentJudge: (c) =>
      (cells.document[c] as number) * layout.judges + (judge ? (judge[c] as number) : 0),
    variant: (c) => (cells.variant ? (cells.variant[c] as number) : 0),
  };
  const terms: Partial<Record<FacetComponent, number>> = {};
  for (const k of layout.components) terms[k] = (components[k] ?? 0) * levelWeight(keys[k]);
  let residual = 0;
  for (let c = 0; c < total; c++) residual += 1 / (cells.n[c] as number);
  terms.residual = ((components.residual ?? 0) * residual) / (total * total);
  return terms;
}
