import type { FacetCells } from "../facets/facetCells.js";
import { expit } from "../numeric/distributions.js";
import type { FacetEffect, FacetModel } from "./facetModel.js";

/** A balanced faceted design: every document has the same queries, judges, wordings and reruns. */
export interface FacetDesignSize {
  readonly documents: number;
  /** Queries per document. */
  readonly queries: number;
  /** Reruns (trials) per (query, judge, variant) cell. */
  readonly trials: number;
  /** Judges grading every answer; 1 = no judge facet in the cells (one judge, still drawn). */
  readonly judges: number;
  /** Prompt wordings; 1 = no variant facet in the cells (one wording, still drawn). */
  readonly variants: number;
}

/** Standard normals from uniforms on [0, 1): Box–Muller, two uniforms per draw (cosine branch). */
export function normalFrom(uniform: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * One evaluation drawn from the model: fresh judges c_j and wordings f_v, then per document its
 * effect a_d and its document × judge effects e_dj, per query b_dq, and each cell's trials, in
 * that order from `uniform` (so a seed fixes the evaluation). Gaussian trials are
 * μ + a + b + c + e + f + ε; logit-normal trials are 1 with probability expit(α + a + b + c + e + f).
 */
export function facetEvaluation(
  model: FacetModel,
  design: FacetDesignSize,
  uniform: () => number,
): FacetCells {
  const normal = normalFrom(uniform);
  const sd = (k: FacetEffect) =>
    model.kind === "gaussian" ? Math.sqrt(model.variances[k] ?? 0) : (model.sds[k] ?? 0);
  const centre = model.kind === "gaussian" ? model.mean : model.intercept;
  const noise = model.kind === "gaussian" ? Math.sqrt(model.variances.residual ?? 0) : 0;
  const { documents: D, queries: Q, trials: T, judges: J, variants: V } = design;
  const judgeEffect = Array.from({ length: J }, () => sd("judge") * normal());
  const variantEffect = Array.from({ length: V }, () => sd("variant") * normal());
  const size = D * Q * J * V;
  const document = new Int32Array(size);
  const query = new Int32Array(size);
  const judge = J > 1 ? new Int32Array(size) : null;
  const variant = V > 1 ? new Int32Array(size) : null;
  const n = new Float64Array(size).fill(T);
  const sum = new Float64Array(size);
  const within = new Float64Array(size);
  const documentJudge = new Float64Array(J);
  let c = 0;
  for (let d = 0; d < D; d++) {
    const a = sd("document") * normal();
    for (let j = 0; j < J; j++) documentJudge[j] = sd("documentJudge") * normal();
    for (let q = 0; q < Q; q++) {
      const b = sd("query") * normal();
      for (let j = 0; j < J; j++)
        for (let v = 0; v < V; v++) {
          const eta =
            centre +
            a +
            b +
            (judgeEffect[j] as number) +
            (documentJudge[j] as number) +
            (variantEffect[v] as number);
          let s = 0;
          let ss = 0;
          if (model.kind === "gaussian") {
            // Welford: the within-cell sum of squares without cancellation.
            let mean = 0;
            for (let t = 0; t < T; t++) {
              const y = eta + noise * normal();
              const delta = y - mean;
              mean += delta / (t + 1);
              ss += delta * (y - mean);
              s += y;
            }
          } else {
            const p = expit(eta);
            for (let t = 0; t < T; t++) s += uniform() < p ? 1 : 0;
            ss = s - (s * s) / T;
          }
          document[c] = d;
          query[c] = d * Q + q;
          if (judge) judge[c] = j;
          if (variant) variant[c] = v;
          sum[c] = s;
          within[c] = ss;
          c++;
        }
    }
  }
  return {
    document,
    query,
    judge,
    variant,
    n,
    sum,
    withinSumOfSquares: within,
    labels: {
      documents: Array.from({ length: D }, (_, d) => `document ${d + 1}`),
      judges: judge ? Array.from({ length: J }, (_, j) => `judge ${j + 1}`) : null,
      variants: variant ? Array.from({ length: V }, (_, v) => `variant ${v + 1}`) : null,
    },
  };
}
