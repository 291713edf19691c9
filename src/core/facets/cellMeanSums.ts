import { NeumaierSum } from "../numeric/compensatedSum.js";
import type { FacetLayout } from "./facetLayout.js";
import type { QueryPatterns } from "./queryPatterns.js";

/**
 * What the REML passes need of the cell means, once per fit (they do not depend on θ): with
 * m_c = ȳ_c − centre and t_q = Σ_{c∈q} n_c m_c, the sums Σ n_c m_c per document, per
 * (document, judge) and per (document, variant), Σ n_c m_c² per document, and per query
 * pattern Σ t_q and Σ (t_q − t̄)² (centred, so that a sum of squares of affine functions of t_q
 * is formed without cancelling), and Σ W_c over every cell. With them one evaluation of the
 * criterion or its gradient costs O(patterns) instead of O(cells) (remlCriterion,
 * remlGradient).
 */
export interface CellMeanSums {
  readonly centre: number;
  readonly document: Float64Array;
  /** Index document · judges + judge. */
  readonly documentJudge: Float64Array;
  /** Index document · variants + variant. */
  readonly documentVariant: Float64Array;
  readonly documentSquares: Float64Array;
  readonly patternSum: Float64Array;
  readonly patternSpread: Float64Array;
  /** Σ_c W_c, compensated. */
  readonly within: number;
}

export function cellMeanSums(
  layout: FacetLayout,
  patterns: QueryPatterns,
  centre: number,
): CellMeanSums {
  const { cells, order, queryStart } = layout;
  const judges = Math.max(layout.judges, 1);
  const variants = Math.max(layout.variants, 1);
  const patternCount = patterns.patternStart.length - 1;
  const out = {
    centre,
    document: new Float64Array(layout.documents),
    documentJudge: new Float64Array(layout.documents * judges),
    documentVariant: new Float64Array(layout.documents * variants),
    documentSquares: new Float64Array(layout.documents),
    patternSum: new Float64Array(patternCount),
    patternSpread: new Float64Array(patternCount),
    within: 0,
  };
  const within = new NeumaierSum();
  const t = new Float64Array(layout.queries);
  for (let d = 0; d < layout.documents; d++) {
    const lastPattern = patterns.documentPatternStart[d + 1] as number;
    for (let p = patterns.documentPatternStart[d] as number; p < lastPattern; p++) {
      const first = patterns.patternStart[p] as number;
      const last = patterns.patternStart[p + 1] as number;
      let sum = 0;
      for (let member = first; member < last; member++) {
        const q = patterns.queries[member] as number;
        let tq = 0;
        for (let i = queryStart[q] as number; i < (queryStart[q + 1] as number); i++) {
          const c = order[i] as number;
          const w = cells.n[c] as number;
          // The same expression as cellRow's y entry.
          const m = (cells.sum[c] as number) / w - centre;
          within.add(cells.withinSumOfSquares[c] as number);
          tq += w * m;
          out.documentSquares[d] = (out.documentSquares[d] as number) + w * m * m;
          if (cells.judge) {
            const k = d * judges + (cells.judge[c] as number);
            out.documentJudge[k] = (out.documentJudge[k] as number) + w * m;
          }
          if (cells.variant) {
            const k = d * variants + (cells.variant[c] as number);
            out.documentVariant[k] = (out.documentVariant[k] as number) + w * m;
          }
        }
        t[q] = tq;
        sum += tq;
        out.document[d] = (out.document[d] as number) + tq;
      }
      const mean = sum / (last - first);
      let spread = 0;
      for (let member = first; member < last; member++)
        spread += ((t[patterns.queries[member] as number] as number) - mean) ** 2;
      out.patternSum[p] = sum;
      out.patternSpread[p] = spread;
    }
  }
  out.within = within.value();
  return out;
}
