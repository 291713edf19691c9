import type { FacetCells } from "./facetCells.js";
import type { FacetLayout } from "./facetLayout.js";

/**
 * The cells of every `step`-th document in the layout's document order (documents 0, step,
 * 2·step, …), with their codes as they are: a systematic subsample of documents, whole, for a
 * cheap first fit whose θ̂ starts the full search (remlFit). Codes need not be contiguous
 * (facetLayout counts the documents, queries and levels it sees).
 */
export function documentSubsample(layout: FacetLayout, step: number): FacetCells {
  const picked: number[] = [];
  for (let d = 0; d < layout.documents; d += step) {
    const from = layout.queryStart[layout.documentStart[d] as number] as number;
    const to = layout.queryStart[layout.documentStart[d + 1] as number] as number;
    for (let i = from; i < to; i++) picked.push(layout.order[i] as number);
  }
  const { cells } = layout;
  const int = (a: Int32Array) => Int32Array.from(picked, (c) => a[c] as number);
  const real = (a: Float64Array) => Float64Array.from(picked, (c) => a[c] as number);
  return {
    document: int(cells.document),
    query: int(cells.query),
    judge: cells.judge ? int(cells.judge) : null,
    variant: cells.variant ? int(cells.variant) : null,
    n: real(cells.n),
    sum: real(cells.sum),
    withinSumOfSquares: real(cells.withinSumOfSquares),
    ...(cells.withinDegreesOfFreedom
      ? { withinDegreesOfFreedom: real(cells.withinDegreesOfFreedom) }
      : {}),
    labels: cells.labels,
  };
}
