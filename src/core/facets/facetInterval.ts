import { documentStats } from "../aggregate/documentStats.js";
import { validateLevel } from "../analyze.js";
import { tInterval } from "../intervals/tInterval.js";
import { NeumaierSum } from "../numeric/compensatedSum.js";
import type { AvailableInterval } from "../types.js";
import { cr2 } from "../variance/cr2.js";
import type { FacetCells, FacetComponent } from "./facetCells.js";
import { interceptSatterthwaite } from "./interceptSatterthwaite.js";
import { meanVarianceTerms } from "./meanVarianceShares.js";
import { remlFit } from "./remlFit.js";
import { componentsOfFit, type VarianceComponents } from "./varianceComponents.js";

export interface FacetIntervalOptions {
  /** Confidence level, e.g. 0.95. */
  readonly level: number;
}

/** One interval and the estimate at its centre. */
export interface FacetEstimate {
  readonly estimate: number;
  readonly interval: AvailableInterval;
}

/**
 * The mean with the interval for the population of judges and wordings beside the one for these
 * judges and wordings, and what drives its uncertainty.
 */
export interface FacetInterval {
  readonly level: number;
  readonly components: VarianceComponents;
  /**
   * Judges and wordings drawn from a population (random): the REML intercept with its model
   * standard error and lmerTest's Satterthwaite ν. Null without a judge or variant component.
   */
  readonly population: FacetEstimate | null;
  /**
   * These judges and wordings (fixed): the mean of the cell means with the document-level CR2
   * interval (each document's cells summed: n_d = its cells, s_d = Σ of their means), as ragci
   * computes for a single system today.
   */
  readonly fixed: FacetEstimate;
  /** "population" when judges or wordings vary (the recommended estimand), else "fixed". */
  readonly recommended: "population" | "fixed";
  /** Share of each component in the variance of the mean (sums to 1; see meanVarianceTerms). */
  readonly shares: Partial<Record<FacetComponent, number>>;
  /** The component with the largest share. */
  readonly dominant: FacetComponent;
}

/** Per-document n_d (cells), s_d (Σ cell means) and ss_d (Σ squares): today's CR2 input. */
export function documentCellSums(cells: FacetCells): {
  ids: string[];
  n: Float64Array;
  s: Float64Array;
  ss: Float64Array;
} {
  const n = new Map<number, number>();
  const s = new Map<number, NeumaierSum>();
  const ss = new Map<number, NeumaierSum>();
  for (let c = 0; c < cells.n.length; c++) {
    const d = cells.document[c] as number;
    n.set(d, (n.get(d) ?? 0) + 1);
    if (!s.has(d)) {
      s.set(d, new NeumaierSum());
      ss.set(d, new NeumaierSum());
    }
    const mean = (cells.sum[c] as number) / (cells.n[c] as number);
    s.get(d)?.add(mean);
    ss.get(d)?.add(mean * mean);
  }
  const codes = [...n.keys()].sort((a, b) => a - b);
  return {
    ids: codes.map((d) => cells.labels.documents[d] ?? String(d)),
    n: Float64Array.from(codes, (d) => n.get(d) as number),
    s: Float64Array.from(codes, (d) => (s.get(d) as NeumaierSum).value()),
    ss: Float64Array.from(codes, (d) => (ss.get(d) as NeumaierSum).value()),
  };
}

/**
 * The interval that counts judges and wordings (issue: noise beyond documents), beside the
 * document-level one for these judges. A judge (or wording) is crossed with documents: a
 * lenient judge lifts every document, so more documents never average it out; with judges
 * random, var(μ̂) carries σ²_judge/J and the degrees of freedom fall towards J − 1.
 *
 * @throws RagciError as varianceComponents, and "invalid-option" for a level outside (0, 1)
 */
export function facetInterval(cells: FacetCells, options: FacetIntervalOptions): FacetInterval {
  validateLevel(options.level);
  const fit = remlFit(cells);
  const components = componentsOfFit(fit);
  const random = fit.layout.components.some((k) => k === "judge" || k === "variant");
  const population = random
    ? {
        estimate: components.mean,
        interval: tInterval(
          components.mean,
          { se: components.meanSe, df: interceptSatterthwaite(fit) },
          options.level,
        ),
      }
    : null;
  const sums = documentCellSums(cells);
  const stats = documentStats({
    ids: sums.ids,
    n: sums.n,
    s: sums.s,
    ss: sums.ss,
    binary: false,
    idsDistinct: true,
  });
  const fixedEstimate = (() => {
    const total = new NeumaierSum();
    const count = new NeumaierSum();
    for (let d = 0; d < stats.n.length; d++) {
      total.add(stats.s[d] as number);
      count.add(stats.n[d] as number);
    }
    return total.value() / count.value();
  })();
  const fixed = {
    estimate: fixedEstimate,
    interval: tInterval(fixedEstimate, cr2(stats), options.level),
  };
  const terms = meanVarianceTerms(fit.layout, components.components);
  let sum = 0;
  for (const v of Object.values(terms)) sum += v as number;
  const shares: Partial<Record<FacetComponent, number>> = {};
  let dominant: FacetComponent = "residual";
  for (const [k, v] of Object.entries(terms) as [FacetComponent, number][]) {
    shares[k] = sum > 0 ? v / sum : 0;
    if ((shares[k] as number) > (shares[dominant] ?? -1)) dominant = k;
  }
  return {
    level: options.level,
    components,
    population,
    fixed,
    recommended: random ? "population" : "fixed",
    shares,
    dominant,
  };
}
