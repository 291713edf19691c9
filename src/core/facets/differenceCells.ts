import { RagciError } from "../errors.js";
import type { FacetCells } from "./facetCells.js";
import { withinDf } from "./facetLayout.js";

/** Paired difference cells and what could not be paired. */
export interface DifferenceCells {
  /** One cell per (document, query, judge, variant) that both systems have: A − B. */
  readonly cells: FacetCells;
  /** Cells of A and of B without a partner (left out of the difference; say so in a note). */
  readonly unmatched: { readonly a: number; readonly b: number };
}

function key(cells: FacetCells, c: number): string {
  return `${cells.document[c]}/${cells.query[c]}/${cells.judge?.[c] ?? -1}/${cells.variant?.[c] ?? -1}`;
}

function sameLabels(x: readonly string[] | null, y: readonly string[] | null): boolean {
  if (x === null || y === null) return x === y;
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * Cells of the paired difference A − B, matched on (document, query, judge, variant), so that
 * the same variance-component fit and interval apply to a comparison.
 *
 * A cell's reruns of A and of B are independent draws, so its mean difference
 * d = ȳ_A − ȳ_B has trial variance σ²_A/n_A + σ²_B/n_B. With a common per-trial variance of the
 * difference σ²_Δ = σ²_A + σ²_B (= 2σ² when the systems share σ²) this is σ²_Δ / m with
 * m = 2 n_A n_B / (n_A + n_B), the harmonic mean of n_A and n_B (m = n when both have n
 * reruns). So the difference cell has n = m, sum = m·d, and within sum of squares
 * 2 (W_A + W_B) on n_A + n_B − 2 degrees of freedom, whose expectation is σ²_Δ times those
 * degrees of freedom when σ²_A = σ²_B (and exactly (σ²_A + σ²_B)(n − 1) when n_A = n_B = n).
 * The residual component of a difference fit is therefore the variance of one rerun of A minus
 * one rerun of B. Unequal rerun counts with unequal trial variances weight the two systems'
 * within sums by their degrees of freedom rather than by 1/n; balanced reruns are exact.
 *
 * @throws RagciError "invalid-value" when the two tables code documents, judges or wordings
 *   differently, or have a different set of facets
 * @example // a: 2 reruns of mean 0.7 (within SS 0.02); b: 1 rerun of 0.5. m = 2·2·1/3, d = 0.2,
 *   // sum = m·d, within SS 2(0.02 + 0) on 1 + 0 df; a's cell of document b has no partner
 *   differenceCells({ document: Int32Array.of(0, 1), query: Int32Array.of(0, 1), judge: null, variant: null, n: Float64Array.of(2, 2), sum: Float64Array.of(1.4, 0.8), withinSumOfSquares: Float64Array.of(0.02, 0), labels: { documents: ["a", "b"], judges: null, variants: null } }, { document: Int32Array.of(0), query: Int32Array.of(0), judge: null, variant: null, n: Float64Array.of(1), sum: Float64Array.of(0.5), withinSumOfSquares: Float64Array.of(0), labels: { documents: ["a", "b"], judges: null, variants: null } })
 *   // => { cells: { document: [0], n: [1.33333], sum: [0.26667], withinSumOfSquares: [0.04000], withinDegreesOfFreedom: [1] }, unmatched: { a: 1, b: 0 } }
 */
export function differenceCells(a: FacetCells, b: FacetCells): DifferenceCells {
  if (
    !sameLabels(a.labels.documents, b.labels.documents) ||
    !sameLabels(a.labels.judges, b.labels.judges) ||
    !sameLabels(a.labels.variants, b.labels.variants) ||
    (a.judge === null) !== (b.judge === null) ||
    (a.variant === null) !== (b.variant === null)
  ) {
    throw new RagciError(
      "invalid-value",
      "facet cells: the two systems' cells code documents, judges or wordings differently; build both from one table so that the codes match",
    );
  }
  const partner = new Map<string, number>();
  for (let c = 0; c < b.n.length; c++) {
    const k = key(b, c);
    if (partner.has(k))
      throw new RagciError(
        "invalid-value",
        `facet cells: cell ${k} appears twice in one system; sum its trials into one cell`,
      );
    partner.set(k, c);
  }
  const pairs: [number, number][] = [];
  const used = new Set<number>();
  for (let c = 0; c < a.n.length; c++) {
    const p = partner.get(key(a, c));
    if (p === undefined) continue;
    if (used.has(p))
      throw new RagciError(
        "invalid-value",
        `facet cells: cell ${key(a, c)} appears twice in one system; sum its trials into one cell`,
      );
    used.add(p);
    pairs.push([c, p]);
  }
  const pick = (array: Int32Array | null) =>
    array ? Int32Array.from(pairs, ([c]) => array[c] as number) : null;
  const n = new Float64Array(pairs.length);
  const sum = new Float64Array(pairs.length);
  const within = new Float64Array(pairs.length);
  const df = new Float64Array(pairs.length);
  pairs.forEach(([ca, cb], i) => {
    const na = a.n[ca] as number;
    const nb = b.n[cb] as number;
    const m = (2 * na * nb) / (na + nb);
    const d = (a.sum[ca] as number) / na - (b.sum[cb] as number) / nb;
    n[i] = m;
    sum[i] = m * d;
    within[i] = 2 * ((a.withinSumOfSquares[ca] as number) + (b.withinSumOfSquares[cb] as number));
    df[i] = withinDf(a, ca) + withinDf(b, cb);
  });
  return {
    cells: {
      document: pick(a.document) as Int32Array,
      query: pick(a.query) as Int32Array,
      judge: pick(a.judge),
      variant: pick(a.variant),
      n,
      sum,
      withinSumOfSquares: within,
      withinDegreesOfFreedom: df,
      labels: a.labels,
    },
    unmatched: { a: a.n.length - pairs.length, b: b.n.length - pairs.length },
  };
}
