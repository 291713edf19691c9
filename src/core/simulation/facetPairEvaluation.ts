import type { FacetCells, FacetComponent } from "../facets/facetCells.js";
import { expit } from "../numeric/distributions.js";
import { type FacetDesignSize, normalFrom } from "./facetEvaluation.js";
import type { FacetEffect } from "./facetModel.js";
import type { PairFacetModel } from "./facetPairModel.js";

/** A paired evaluation: both systems' cells, with the same codes and labels. */
export interface FacetPairCells {
  readonly a: FacetCells;
  readonly b: FacetCells;
}

/**
 * One paired evaluation drawn from the model: fresh judge pairs and wording pairs, then per
 * document its effect pair and its document × judge pairs, per query its pair, and each cell's
 * trial pairs, in that order from `uniform` (so a seed fixes the evaluation). Each pair takes
 * two normals z₁, z₂ (always both, so the streams stay aligned whatever the variances):
 * u_a = √V_a z₁, u_b = (C/√V_a) z₁ + √(V_b − C²/V_a) z₂ (u_b = √V_b z₂ when V_a = 0); for the
 * logit-normal pair, u_a = s_a z₁, u_b = s_b (ρ z₁ + √(1 − ρ²) z₂) on the logit scale. A
 * Gaussian trial pair is a residual pair; a logit-normal one takes three uniforms U₁, U₂, U₃:
 * y_a = 1{U₁ < p_a}, y_b = 1{U₁ < p_b} when U₃ < sharedTrial, else 1{U₂ < p_b}.
 */
export function facetPairEvaluation(
  model: PairFacetModel,
  design: FacetDesignSize,
  uniform: () => number,
): FacetPairCells {
  const normal = normalFrom(uniform);
  const pairOf = (k: FacetComponent) => {
    let sa: number;
    let slope: number;
    let rest: number;
    if (model.kind === "paired-gaussian") {
      const va = model.variances.a[k] ?? 0;
      const vb = model.variances.b[k] ?? 0;
      const c = model.covariances[k] ?? 0;
      sa = Math.sqrt(va);
      slope = sa > 0 ? c / sa : 0;
      rest = Math.sqrt(Math.max(0, vb - slope * slope));
    } else {
      const effect = k as FacetEffect;
      const rho = model.correlations[effect] ?? 0;
      const sb = model.b.sds[effect] ?? 0;
      sa = model.a.sds[effect] ?? 0;
      slope = rho * sb;
      rest = sb * Math.sqrt(Math.max(0, 1 - rho * rho));
    }
    return (out: Float64Array, at: number) => {
      const z1 = normal();
      const z2 = normal();
      out[2 * at] = sa * z1;
      out[2 * at + 1] = slope * z1 + rest * z2;
    };
  };
  const draw = {
    document: pairOf("document"),
    query: pairOf("query"),
    judge: pairOf("judge"),
    documentJudge: pairOf("documentJudge"),
    variant: pairOf("variant"),
    residual: pairOf("residual"),
  };
  const gaussian = model.kind === "paired-gaussian";
  const sharedTrial = gaussian ? 0 : model.sharedTrial;
  const { documents: D, queries: Q, trials: T, judges: J, variants: V } = design;
  // Pairs stored interleaved: [a, b] of level i at 2i, 2i + 1.
  const judgeEffect = new Float64Array(2 * J);
  for (let j = 0; j < J; j++) draw.judge(judgeEffect, j);
  const variantEffect = new Float64Array(2 * V);
  for (let v = 0; v < V; v++) draw.variant(variantEffect, v);
  const size = D * Q * J * V;
  const document = new Int32Array(size);
  const query = new Int32Array(size);
  const judge = J > 1 ? new Int32Array(size) : null;
  const variant = V > 1 ? new Int32Array(size) : null;
  const n = new Float64Array(size).fill(T);
  const sums = [new Float64Array(size), new Float64Array(size)] as const;
  const withins = [new Float64Array(size), new Float64Array(size)] as const;
  const documentEffect = new Float64Array(2);
  const queryEffect = new Float64Array(2);
  const documentJudge = new Float64Array(2 * J);
  const trial = new Float64Array(2);
  const mean = new Float64Array(2);
  const ss = new Float64Array(2);
  const s = new Float64Array(2);
  const centre = gaussian
    ? ([model.means.a, model.means.b] as const)
    : ([model.a.intercept, model.b.intercept] as const);
  const eta = new Float64Array(2);
  let c = 0;
  for (let d = 0; d < D; d++) {
    draw.document(documentEffect, 0);
    for (let j = 0; j < J; j++) draw.documentJudge(documentJudge, j);
    for (let q = 0; q < Q; q++) {
      draw.query(queryEffect, 0);
      for (let j = 0; j < J; j++)
        for (let v = 0; v < V; v++) {
          mean.fill(0);
          ss.fill(0);
          s.fill(0);
          for (let x = 0; x < 2; x++)
            eta[x] =
              (centre[x] as number) +
              (documentEffect[x] as number) +
              (queryEffect[x] as number) +
              (judgeEffect[2 * j + x] as number) +
              (documentJudge[2 * j + x] as number) +
              (variantEffect[2 * v + x] as number);
          for (let t = 0; t < T; t++) {
            if (gaussian) draw.residual(trial, 0);
            else {
              const u1 = uniform();
              const u2 = uniform();
              const shared = uniform() < sharedTrial;
              trial[0] = u1 < expit(eta[0] as number) ? 1 : 0;
              trial[1] = (shared ? u1 : u2) < expit(eta[1] as number) ? 1 : 0;
            }
            for (let x = 0; x < 2; x++) {
              const y = gaussian ? (eta[x] as number) + (trial[x] as number) : (trial[x] as number);
              // Welford: the within-cell sum of squares without cancellation.
              const delta = y - (mean[x] as number);
              mean[x] = (mean[x] as number) + delta / (t + 1);
              ss[x] = (ss[x] as number) + delta * (y - (mean[x] as number));
              s[x] = (s[x] as number) + y;
            }
          }
          document[c] = d;
          query[c] = d * Q + q;
          if (judge) judge[c] = j;
          if (variant) variant[c] = v;
          for (let x = 0; x < 2; x++) {
            (sums[x] as Float64Array)[c] = s[x] as number;
            (withins[x] as Float64Array)[c] = ss[x] as number;
          }
          c++;
        }
    }
  }
  const labels = {
    documents: Array.from({ length: D }, (_, i) => `document ${i + 1}`),
    judges: judge ? Array.from({ length: J }, (_, i) => `judge ${i + 1}`) : null,
    variants: variant ? Array.from({ length: V }, (_, i) => `variant ${i + 1}`) : null,
  };
  const cellsOf = (x: 0 | 1): FacetCells => ({
    document,
    query,
    judge,
    variant,
    n,
    sum: sums[x],
    withinSumOfSquares: withins[x],
    labels,
  });
  return { a: cellsOf(0), b: cellsOf(1) };
}
