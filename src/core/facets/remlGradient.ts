import { choleskyInverse } from "../numeric/choleskyInverse.js";
import { NeumaierSum } from "../numeric/compensatedSum.js";
import type { FacetLayout, RandomComponent } from "./facetLayout.js";
import {
  cellRow,
  documentBlock,
  type RemlPieces,
  RemlWorkspace,
  remlPieces,
  type Slots,
  slots,
} from "./remlCriterion.js";

/**
 * Exact derivatives of lme4's REML pieces with respect to θ (θ_k = σ_k/σ, layout.components
 * order), from one more pass over the cells after the pass that gives the value.
 *
 * Notation (remlCriterion): Ã = [ΛᵀZᵀWZΛ + I, ΛᵀZᵀWX; XᵀWZΛ, XᵀWX] over the spherical effects
 * u and μ, so log|Ã| = logDetL + logRx2; cell c's row is w_c = Λ̃ z̃_c (θ_k at its level of
 * each component, 1 at μ) and Ã = D + Σ_c n_c w_c w_cᵀ.
 *
 * - log|Ã|: ∂Ã/∂θ_k = Σ_c n_c (e_kc w_cᵀ + w_c e_kcᵀ), e_kc the unit vector at c's level of k,
 *   so ∂log|Ã|/∂θ_k = tr(Ã⁻¹ ∂Ã/∂θ_k) = 2 Σ_c n_c (Ã⁻¹ w_c)[level_k(c)] (Jacobi's formula; the
 *   θ-scale score of the profiled REML deviance of Bates et al. 2015, JSS 67(1), §3, per cell).
 * - prss: by the envelope theorem at the penalised least-squares solution (û, μ̂), with cell
 *   residuals r_c = ȳ_c − μ̂ − z_cᵀΛû and b = ZᵀW r (so û = Λ b), ∂prss/∂θ_k = −2 θ_k Σ_{j∈k} b_j²
 *   (the BLUP form of the REML score, Searle, Casella & McCulloch 1992, ch. 6, in θ).
 * - R_X² = 1/(Ã⁻¹)_μμ: ∂R_X²/∂θ_k = R_X⁴ · 2 Σ_c n_c m[level_k(c)] (mᵀ w_c), m = Ã⁻¹ e_μ.
 *
 * The entries of Ã⁻¹ that these need (each cell's effects against each other and μ) are a
 * selected inverse (Takahashi, Fagan & Chin 1973) along remlCriterion's elimination order:
 * with S the crossed effects' and μ's Schur complement, and a document's local block B (its
 * queries eliminated, plus I) coupled to them by C, L = B⁻¹C:
 *   Σ_GG = S⁻¹,  Σ_LG = −L S⁻¹,  Σ_LL = B⁻¹ + L S⁻¹ Lᵀ   (the block inverse);
 * a query q with pivot p_q and coupling g_q to the document's rows R: Ã⁻¹[q, R] = −(Σ_R g_q)ᵀ/p_q,
 * Ã⁻¹[q, q] = 1/p_q + g_qᵀ Σ_R g_q / p_q². The solution x = (û, μ̂ − centre) comes by back
 * substitution in the same order. Cost: one pass over the documents' query patterns after the
 * value's, which keeps each document's local rows for it (made once per fit, up to 32 MB;
 * beyond that this pass rebuilds them); nothing of O(cells) is allocated per evaluation. What
 * depends only on a query's pattern (queryPatterns: its coupling without the means, Σ_R g_q,
 * each cell's entries of Ã⁻¹) is computed once per pattern and counted for each of its
 * queries; x_q and the residuals are affine in the cell means, which enter only through their
 * sums (cellMeanSums).
 */
export interface RemlGradient {
  /** ∂ log|Ã| / ∂θ_k = ∂(logDetL + logRx2)/∂θ_k. */
  readonly logDet: Float64Array;
  /** ∂ prss / ∂θ_k. */
  readonly prss: Float64Array;
  /** ∂ R_X² / ∂θ_k. */
  readonly rx2: Float64Array;
}

/** Buffers for remlGradient: a few blocks of the document's size, made once per fit. */
export class RemlGradientWorkspace {
  readonly base: RemlWorkspace;
  readonly sInverse: Float64Array;
  readonly sMatrix: Float64Array;
  readonly bMatrix: Float64Array;
  readonly bInverse: Float64Array;
  readonly work: Float64Array;
  readonly lMatrix: Float64Array;
  readonly lsMatrix: Float64Array;
  readonly sigma: Float64Array;
  readonly x: Float64Array;
  readonly h: Float64Array;
  readonly t: Float64Array;
  readonly m: Float64Array;
  readonly residualJudge: Float64Array;
  readonly residualDocumentJudge: Float64Array;
  readonly residualVariant: Float64Array;
  /** v_cᵀx of each cell of the pattern at hand (pattern order). */
  readonly cellFit: Float64Array;

  constructor(layout: FacetLayout) {
    // The value pass keeps what this pass would rebuild when that fits in 32 MB (2²² numbers).
    const at = slots(
      layout,
      layout.components.map(() => 1),
    );
    const kept = layout.documents * at.local * at.size;
    this.base = new RemlWorkspace(layout, kept <= 2 ** 22);
    const size = this.base.size;
    this.sInverse = new Float64Array(size * size);
    this.sMatrix = new Float64Array(size * size);
    this.bMatrix = new Float64Array(size * size);
    this.bInverse = new Float64Array(size * size);
    this.work = new Float64Array(size * size);
    this.lMatrix = new Float64Array(size * size);
    this.lsMatrix = new Float64Array(size * size);
    this.sigma = new Float64Array(size * size);
    this.x = new Float64Array(size);
    this.h = new Float64Array(size);
    this.t = new Float64Array(6);
    this.m = new Float64Array(6);
    this.residualJudge = new Float64Array(Math.max(layout.judges, 1));
    this.residualDocumentJudge = new Float64Array(Math.max(layout.judges, 1));
    this.residualVariant = new Float64Array(Math.max(layout.variants, 1));
    this.cellFit = new Float64Array(Math.max(this.base.patterns.maxCells, 1));
  }
}

/** Running sums per component (NeumaierSum each), in RandomComponent slots. */
const COMPONENTS: readonly RandomComponent[] = [
  "document",
  "query",
  "judge",
  "documentJudge",
  "variant",
];

/** lme4's REML pieces at θ and their θ-derivatives (see RemlGradient), in two passes. */
export function remlPiecesAndGradient(
  layout: FacetLayout,
  theta: ArrayLike<number>,
  centre: number,
  ws: RemlGradientWorkspace = new RemlGradientWorkspace(layout),
): { readonly pieces: RemlPieces; readonly gradient: RemlGradient } {
  const pieces = remlPieces(layout, theta, centre, ws.base);
  return { pieces, gradient: remlGradientAt(layout, theta, centre, ws, pieces) };
}

/**
 * The θ-derivatives at θ, in one pass, after `pieces = remlPieces(layout, theta, centre,
 * ws.base)` was the last evaluation on ws (it leaves the Schur complement and the records this
 * pass reads).
 */
export function remlGradientAt(
  layout: FacetLayout,
  theta: ArrayLike<number>,
  centre: number,
  ws: RemlGradientWorkspace,
  pieces: RemlPieces,
): RemlGradient {
  const { cells } = layout;
  const at = slots(layout, theta);
  const { size, local, mu } = at;
  const rdim = mu + 1; // the document's rows R: local, crossed, μ (not y)
  const base = ws.base;
  const { block, g, idx, val, patterns } = base;
  const { sigma, x, h, t, m } = ws;
  const cellFit = ws.cellFit;
  const sums = base.meanSums(layout, centre);
  const judgeStride = Math.max(layout.judges, 1);
  const variantStride = Math.max(layout.variants, 1);
  crossedInverse(ws, at);
  // Where each component's level sits in a cell's row (cellRow's order), −1 when absent.
  let next = 1;
  const posDocumentJudge = at.judgeLocal >= 0 && cells.judge ? next++ : -1;
  const posJudge = at.judgeGlobal >= 0 && cells.judge ? next++ : -1;
  const posVariant = at.variantGlobal >= 0 && cells.variant ? next++ : -1;
  const tq = at.theta.query;
  const logDet = COMPONENTS.map(() => new NeumaierSum());
  const rx = COMPONENTS.map(() => new NeumaierSum());
  const squares = COMPONENTS.map(() => new NeumaierSum());
  const residualJudge = ws.residualJudge.fill(0);
  const residualVariant = ws.residualVariant.fill(0);
  const residualDocumentJudge = ws.residualDocumentJudge;
  for (let d = 0; d < layout.documents; d++) {
    // The document's local rows, as the value pass kept them or rebuilt.
    let rows = block;
    let at0 = 0;
    if (base.documentRows) {
      rows = base.documentRows;
      at0 = d * local * size;
    } else documentBlock(layout, at, centre, d, base, null);
    documentInverse(ws, at, rows, at0);
    // Each level's Σ n_c (ȳ_c − centre) − Σ n_c (v_cᵀx + θ_Q x_q): the means' part here, the
    // fitted part per pattern below.
    let residualDocument = sums.document[d] as number;
    residualDocumentJudge.fill(0);
    if (cells.judge)
      for (let j = 0; j < layout.judges; j++) {
        const tj = sums.documentJudge[d * judgeStride + j] as number;
        residualDocumentJudge[j] = tj;
        residualJudge[j] = (residualJudge[j] as number) + tj;
      }
    if (cells.variant)
      for (let v = 0; v < layout.variants; v++)
        residualVariant[v] =
          (residualVariant[v] as number) + (sums.documentVariant[d * variantStride + v] as number);
    let logDetDocument = 0;
    let rxDocument = 0;
    let logDetQuery = 0;
    let rxQuery = 0;
    let logDetJudge = 0;
    let rxJudge = 0;
    let logDetDocumentJudge = 0;
    let rxDocumentJudge = 0;
    let logDetVariant = 0;
    let rxVariant = 0;
    const lastPattern = patterns.documentPatternStart[d + 1] as number;
    for (let p = patterns.documentPatternStart[d] as number; p < lastPattern; p++) {
      const firstMember = patterns.patternStart[p] as number;
      const lastMember = patterns.patternStart[p + 1] as number;
      const count = lastMember - firstMember;
      const q0 = patterns.queries[firstMember] as number;
      const from = layout.queryStart[q0] as number;
      const to = layout.queryStart[q0 + 1] as number;
      // The pattern's pivot and coupling g (without the means, as documentBlock), h = Σ_R g.
      let pivot = 1;
      let gh = 0;
      let gx = 0;
      if (at.hasQuery) {
        g.fill(0);
        for (let i = from; i < to; i++) {
          const c = layout.order[i] as number;
          const w = cells.n[c] as number;
          const k = cellRow(layout, at, c, centre, base) - 1;
          for (let r = 0; r < k; r++)
            g[idx[r] as number] = (g[idx[r] as number] as number) + w * (val[r] as number) * tq;
          pivot += w * tq * tq;
        }
        for (let a = 0; a < rdim; a++) {
          let s = 0;
          for (let b = 0; b < rdim; b++) s += (sigma[a * rdim + b] as number) * (g[b] as number);
          h[a] = s;
          gh += (g[a] as number) * s;
          gx += (g[a] as number) * (x[a] as number);
        }
      }
      // What each cell of the pattern gives log|Ã|'s and R_X²'s derivatives (the same for each
      // query of the pattern: times count), and its row's product with x (cellFit).
      let fittedTotal = 0;
      let weightTotal = 0;
      for (let i = from; i < to; i++) {
        const c = layout.order[i] as number;
        const w = cells.n[c] as number;
        const k = cellRow(layout, at, c, centre, base) - 1; // without y
        let fitted = 0;
        let mw = 0;
        let hw = 0;
        for (let r = 0; r < k; r++) {
          const a = idx[r] as number;
          let s = 0;
          for (let b = 0; b < k; b++)
            s += (sigma[a * rdim + (idx[b] as number)] as number) * (val[b] as number);
          if (at.hasQuery) s -= (tq * (h[a] as number)) / pivot;
          t[r] = s;
          m[r] = sigma[a * rdim + mu] as number;
          mw += (m[r] as number) * (val[r] as number);
          hw += (h[a] as number) * (val[r] as number);
          fitted += (val[r] as number) * (x[a] as number);
        }
        cellFit[i - from] = fitted;
        fittedTotal += w * fitted;
        weightTotal += w;
        const cw = count * w;
        if (at.hasQuery) {
          const mq = -(h[mu] as number) / pivot;
          mw += mq * tq;
          const tQuery = tq * (1 / pivot + gh / (pivot * pivot)) - hw / pivot;
          logDetQuery += cw * tQuery;
          rxQuery += cw * mq * mw;
        }
        logDetDocument += cw * (t[0] as number);
        rxDocument += cw * (m[0] as number) * mw;
        if (posDocumentJudge >= 0) {
          logDetDocumentJudge += cw * (t[posDocumentJudge] as number);
          rxDocumentJudge += cw * (m[posDocumentJudge] as number) * mw;
        }
        if (posJudge >= 0) {
          logDetJudge += cw * (t[posJudge] as number);
          rxJudge += cw * (m[posJudge] as number) * mw;
        }
        if (posVariant >= 0) {
          logDetVariant += cw * (t[posVariant] as number);
          rxVariant += cw * (m[posVariant] as number) * mw;
        }
      }
      // The queries' x_q = (θ_Q t_q − gᵀx)/pivot are affine in t_q = Σ_{c∈q} n_c (ȳ_c − centre),
      // so their sum comes from Σ_q t_q, and each cell position's fitted part from it; a
      // query's residual Σ_{c∈q} n_c r_c = β t_q − α, whose squares add up from Σ_q t_q and
      // Σ_q (t_q − t̄)² (cellMeanSums) without cancelling.
      const sumT = sums.patternSum[p] as number;
      const sumX = at.hasQuery ? (tq * sumT - count * gx) / pivot : 0;
      for (let i = from; i < to; i++) {
        const c = layout.order[i] as number;
        const w = cells.n[c] as number;
        const fitted = -(count * w * (cellFit[i - from] as number)) - tq * w * sumX;
        residualDocument += fitted;
        if (cells.judge) {
          const j = cells.judge[c] as number;
          residualDocumentJudge[j] = (residualDocumentJudge[j] as number) + fitted;
          residualJudge[j] = (residualJudge[j] as number) + fitted;
        }
        if (cells.variant) {
          const v = cells.variant[c] as number;
          residualVariant[v] = (residualVariant[v] as number) + fitted;
        }
      }
      if (at.hasQuery) {
        const beta = 1 - (tq * tq * weightTotal) / pivot;
        const alpha = fittedTotal - (tq * weightTotal * gx) / pivot;
        const centred = (beta * sumT) / count - alpha;
        (squares[1] as NeumaierSum).add(
          beta * beta * (sums.patternSpread[p] as number) + count * centred * centred,
        );
      }
    }
    (squares[0] as NeumaierSum).add(residualDocument * residualDocument);
    for (let j = 0; j < layout.judges; j++)
      (squares[3] as NeumaierSum).add((residualDocumentJudge[j] as number) ** 2);
    const partial = [
      [logDetDocument, rxDocument],
      [logDetQuery, rxQuery],
      [logDetJudge, rxJudge],
      [logDetDocumentJudge, rxDocumentJudge],
      [logDetVariant, rxVariant],
    ] as const;
    for (let i = 0; i < COMPONENTS.length; i++) {
      (logDet[i] as NeumaierSum).add((partial[i] as readonly number[])[0] as number);
      (rx[i] as NeumaierSum).add((partial[i] as readonly number[])[1] as number);
    }
  }
  for (let j = 0; j < layout.judges; j++)
    (squares[2] as NeumaierSum).add((residualJudge[j] as number) ** 2);
  for (let v = 0; v < layout.variants; v++)
    (squares[4] as NeumaierSum).add((residualVariant[v] as number) ** 2);
  const k = layout.components.length;
  const gradient = {
    logDet: new Float64Array(k),
    prss: new Float64Array(k),
    rx2: new Float64Array(k),
  };
  const rx4 = pieces.rx2 * pieces.rx2;
  layout.components.forEach((component, i) => {
    const slot = COMPONENTS.indexOf(component);
    const thetaI = theta[i] as number;
    gradient.logDet[i] = 2 * (logDet[slot] as NeumaierSum).value();
    gradient.prss[i] = -2 * thetaI * (squares[slot] as NeumaierSum).value();
    gradient.rx2[i] = 2 * rx4 * (rx[slot] as NeumaierSum).value();
  });
  return gradient;
}

/** ∂/∂θ of lme4's profiled REML criterion (profiledReml). */
export function profiledRemlGradient(
  layout: FacetLayout,
  pieces: RemlPieces,
  gradient: RemlGradient,
): Float64Array {
  const dfResidual = layout.observations - 1;
  return gradient.logDet.map(
    (v, i) => v + (dfResidual / pieces.prss) * (gradient.prss[i] as number),
  );
}

/**
 * S⁻¹, the crossed effects' and μ's block of Ã⁻¹ (Σ_GG, into ws.sigma), and their solution
 * x_G = S⁻¹ a_G (into ws.x), from the Schur complement the value pass left in ws.base.schur.
 */
function crossedInverse(ws: RemlGradientWorkspace, at: Slots): void {
  const { size, local, mu, y } = at;
  const rdim = mu + 1;
  const gdim = mu - local + 1;
  const { sInverse, sMatrix, work, sigma, x } = ws;
  const schur = ws.base.schur;
  for (let i = 0; i < gdim; i++)
    for (let j = 0; j < gdim; j++)
      sMatrix[i * gdim + j] = schur[(local + i) * size + local + j] as number;
  choleskyInverse(sMatrix, gdim, sInverse, work);
  for (let i = 0; i < gdim; i++) {
    let s = 0;
    for (let j = 0; j < gdim; j++)
      s += (sInverse[i * gdim + j] as number) * (schur[(local + j) * size + y] as number);
    x[local + i] = s;
    for (let j = 0; j < gdim; j++)
      sigma[(local + i) * rdim + local + j] = sInverse[i * gdim + j] as number;
  }
}

/**
 * One document's local block B (its rows after the queries' elimination, plus I), B⁻¹,
 * L = B⁻¹C, the local solution x_L = B⁻¹ a_L − L x_G (into ws.x), and Σ_R's local rows
 * (Σ_LL = B⁻¹ + L S⁻¹ Lᵀ, Σ_LG = −L S⁻¹, into ws.sigma); `rows` from offset `at0`.
 */
function documentInverse(
  ws: RemlGradientWorkspace,
  at: Slots,
  rows: Float64Array,
  at0: number,
): void {
  const { size, local, mu, y } = at;
  const rdim = mu + 1;
  const gdim = mu - local + 1;
  const { sInverse, bMatrix, bInverse, work, lMatrix, lsMatrix, sigma, x } = ws;
  for (let i = 0; i < local; i++)
    for (let j = 0; j < local; j++)
      bMatrix[i * local + j] = (rows[at0 + i * size + j] as number) + (i === j ? 1 : 0);
  choleskyInverse(bMatrix, local, bInverse, work);
  for (let i = 0; i < local; i++) {
    let xi = 0;
    for (let k = 0; k < local; k++)
      xi += (bInverse[i * local + k] as number) * (rows[at0 + k * size + y] as number);
    for (let j = 0; j < gdim; j++) {
      let s = 0;
      for (let k = 0; k < local; k++)
        s += (bInverse[i * local + k] as number) * (rows[at0 + k * size + local + j] as number);
      lMatrix[i * gdim + j] = s;
      xi -= s * (x[local + j] as number);
    }
    x[i] = xi;
  }
  for (let i = 0; i < local; i++)
    for (let j = 0; j < gdim; j++) {
      let s = 0;
      for (let k = 0; k < gdim; k++)
        s += (lMatrix[i * gdim + k] as number) * (sInverse[k * gdim + j] as number);
      lsMatrix[i * gdim + j] = s;
      sigma[i * rdim + local + j] = -s;
      sigma[(local + j) * rdim + i] = -s;
    }
  for (let i = 0; i < local; i++)
    for (let j = 0; j <= i; j++) {
      let s = bInverse[i * local + j] as number;
      for (let k = 0; k < gdim; k++)
        s += (lsMatrix[i * gdim + k] as number) * (lMatrix[j * gdim + k] as number);
      sigma[i * rdim + j] = s;
      sigma[j * rdim + i] = s;
    }
}
