import type { FacetLayout } from "./facetLayout.js";

/**
 * A document's queries grouped by the pattern of their cells: the same sequence of (judge,
 * variant, trials) in layout order. Queries of one pattern differ only in their cell means, so
 * the REML passes (remlCriterion, remlGradient) compute what depends on the pattern alone — a
 * cell's row without its mean, the query's pivot and coupling, their products with the
 * document's inverse — once per pattern and scale it by the pattern's count; the means enter
 * through their sums per document, level and pattern (cellMeanSums). A design where every
 * query has every judge with the same reruns has one pattern per document.
 */
export interface QueryPatterns {
  /** Query groups (layout.queryStart indices) ordered by document, then pattern, then query. */
  readonly queries: Int32Array;
  /** Pattern p's queries are queries[patternStart[p] .. patternStart[p + 1]). */
  readonly patternStart: Int32Array;
  /** Document d's patterns are documentPatternStart[d] .. documentPatternStart[d + 1]. */
  readonly documentPatternStart: Int32Array;
  /** The most cells any query has. */
  readonly maxCells: number;
}

/** Groups each document's queries by pattern; θ-independent, made once per fit, O(cells). */
export function queryPatterns(layout: FacetLayout): QueryPatterns {
  const { cells } = layout;
  const queries = new Int32Array(layout.queries);
  const patternStart: number[] = [];
  const documentPatternStart: number[] = [];
  let filled = 0;
  let maxCells = 0;
  for (let d = 0; d < layout.documents; d++) {
    documentPatternStart.push(patternStart.length);
    const byKey = new Map<string, number[]>();
    for (
      let q = layout.documentStart[d] as number;
      q < (layout.documentStart[d + 1] as number);
      q++
    ) {
      const from = layout.queryStart[q] as number;
      const to = layout.queryStart[q + 1] as number;
      maxCells = Math.max(maxCells, to - from);
      let key = "";
      for (let i = from; i < to; i++) {
        const c = layout.order[i] as number;
        key += `${cells.judge?.[c] ?? -1},${cells.variant?.[c] ?? -1},${cells.n[c]};`;
      }
      const members = byKey.get(key);
      if (members) members.push(q);
      else byKey.set(key, [q]);
    }
    for (const members of byKey.values()) {
      patternStart.push(filled);
      for (const q of members) queries[filled++] = q;
    }
  }
  patternStart.push(filled);
  documentPatternStart.push(patternStart.length - 1);
  return {
    queries,
    patternStart: Int32Array.from(patternStart),
    documentPatternStart: Int32Array.from(documentPatternStart),
    maxCells,
  };
}
