import { documentStats } from "../aggregate/documentStats.js";
import { validateLevel } from "../intervals/level.js";
import { tInterval } from "../intervals/tInterval.js";
import { compensatedSum, NeumaierSum } from "../numeric/compensatedSum.js";
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
   * Judges and wordings drawn from a population (random), the recommended interval: the union
   * of `reml` and `spread` (on a balanced design both are centred on the same mean, and this
   * is the wider of the two). In the coverage study (docs/facets.md) the union covered
   * 94.3% where each alone covered about 93%, at the width of the REML one. Its se, df and q
   * are those of the wider of the two. Null without a judge or variant component.
   */
  readonly population: FacetEstimate | null;
  /** The REML intercept ± t(ν)·se with lmerTest's Satterthwaite ν (model-based). */
  readonly reml: FacetEstimate | null;
  /**
   * The mean of the cell means with CR2 variance + s²_judge/J (+ s²_variant/V), the spread of
   * the per-judge (per-wording) means, and Satterthwaite's ν over (ν_CR2, J − 1, V − 1)
   * (design-based: conservative by the document × judge term on a balanced design).
   */
  readonly spread: FacetEstimate | null;
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

/** s²(level means)/L for one crossed facet: the mean of each level's cell means, their spread. */
function spreadOfLevelMeans(
  cells: FacetCells,
  codes: Int32Array,
): { variance: number; levels: number } {
  const totals = new Map<number, { sum: NeumaierSum; count: number }>();
  for (let c = 0; c < codes.length; c++) {
    const code = codes[c] as number;
    let t = totals.get(code);
    if (!t) {
      t = { sum: new NeumaierSum(), count: 0 };
      totals.set(code, t);
    }
    t.sum.add((cells.sum[c] as number) / (cells.n[c] as number));
    t.count++;
  }
  const means = [...totals.values()].map((t) => t.sum.value() / t.count);
  const levels = means.length;
  const mean = compensatedSum(means) / levels;
  const s2 = compensatedSum(means.map((m) => (m - mean) ** 2)) / (levels - 1);
  return { variance: s2 / levels, levels };
}

/** [min lower, max upper] of two intervals; se, df and q of the one with the wider half-width. */
function union(a: FacetEstimate, b: FacetEstimate): FacetEstimate {
  const half = (e: FacetEstimate) => (e.interval.upper - e.interval.lower) / 2;
  const wider = half(a) >= half(b) ? a : b;
  return {
    estimate: wider.estimate,
    interval: {
      ...wider.interval,
      lower: Math.min(a.interval.lower, b.interval.lower),
      upper: Math.max(a.interval.upper, b.interval.upper),
    },
  };
}

/**
 * The interval that counts judges and wordings (issue: noise beyond documents), beside the
 * document-level one for these judges. A judge (or wording) is crossed with documents: a
 * lenient judge lifts every document, so more documents never average it out; with judges
 * random, var(μ̂) carries σ²_judge/J and the degrees of freedom fall towards J − 1.
 *
 * @throws RagciError as varianceComponents, and "invalid-option" for a level outside (0, 1)
 * @example
 *   // three documents (one query each) graded by two judges, twice: a 0.6 0.8 | 0.4 0.4, b 0.7 0.9 |
 *   // 0.8 0.8, c 0.5 0.3 | 0.1 0.3 (judge j1 | j2)
 *   // reml: lmerTest's Satterthwaite ν 2.498 and 0.55 ± qt(0.975, 2.498)·0.16073; spread:
 *   // √(0.14434² + 0.02778/2) with judge means 0.6333 and 0.4667; fixed: sd(0.55, 0.8, 0.3)/√3
 *   facetInterval({ document: Int32Array.of(0, 0, 1, 1, 2, 2), query: Int32Array.of(0, 0, 1, 1, 2, 2), judge: Int32Array.of(0, 1, 0, 1, 0, 1), variant: null, n: Float64Array.of(2, 2, 2, 2, 2, 2), sum: Float64Array.of(1.4, 0.8, 1.6, 1.6, 0.8, 0.4), withinSumOfSquares: Float64Array.of(0.02, 0, 0.02, 0, 0.02, 0.02), labels: { documents: ["a", "b", "c"], judges: ["j1", "j2"], variants: null } }, { level: 0.95 })
 *   // => { recommended: "population", population: { interval: { lower: -0.02483, upper: 1.12483, df: 2.4983 } }, spread: { interval: { se: 0.16667, df: 2.9091 } }, fixed: { interval: { se: 0.14434, df: 2 } }, dominant: "document" }
 */
export function facetInterval(cells: FacetCells, options: FacetIntervalOptions): FacetInterval {
  validateLevel(options.level);
  const fit = remlFit(cells);
  const components = componentsOfFit(fit);
  const random = fit.layout.components.some((k) => k === "judge" || k === "variant");
  // Without a Satterthwaite ν (a fit with no residual variance) there is no REML interval, and
  // the population interval is the spread one alone.
  const remlDf = random ? interceptSatterthwaite(fit) : null;
  const reml =
    remlDf !== null
      ? {
          estimate: components.mean,
          interval: tInterval(
            components.mean,
            { se: components.meanSe, df: remlDf },
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
  const fixedEstimate = compensatedSum(stats.s) / compensatedSum(stats.n);
  const documentError = cr2(stats);
  const fixed = {
    estimate: fixedEstimate,
    interval: tInterval(fixedEstimate, documentError, options.level),
  };
  let spread: FacetEstimate | null = null;
  if (random) {
    // Satterthwaite over independent pieces: CR2 (ν_CR2) and each crossed facet's spread.
    const vd = (documentError.se as number) ** 2;
    let variance = vd;
    let denominator = vd ** 2 / (documentError.df as number);
    for (const codes of [
      fit.layout.components.includes("judge") ? cells.judge : null,
      fit.layout.components.includes("variant") ? cells.variant : null,
    ]) {
      if (!codes) continue;
      const levelSpread = spreadOfLevelMeans(cells, codes);
      variance += levelSpread.variance;
      denominator += levelSpread.variance ** 2 / (levelSpread.levels - 1);
    }
    spread = {
      estimate: fixedEstimate,
      interval: tInterval(
        fixedEstimate,
        { se: Math.sqrt(variance), df: denominator > 0 ? variance ** 2 / denominator : null },
        options.level,
      ),
    };
  }
  const population = reml && spread ? union(reml, spread) : spread;
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
    reml,
    spread,
    fixed,
    recommended: random ? "population" : "fixed",
    shares,
    dominant,
  };
}
