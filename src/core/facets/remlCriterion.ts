import { NeumaierSum } from "../numeric/compensatedSum.js";
import { type CellMeanSums, cellMeanSums } from "./cellMeanSums.js";
import type { FacetLayout, RandomComponent } from "./facetLayout.js";
import { type QueryPatterns, queryPatterns } from "./queryPatterns.js";

/**
 * The pieces of lme4's REML criterion at relative standard deviations θ (θ_k = σ_k/σ, one per
 * fitted component, in layout.components order), computed from the cell sufficient statistics.
 *
 * The trial-level model y = μ + a_d + b_dq + c_j + e_dj + f_v + ε splits exactly into the cell
 * means (variance σ²/n_c about the cell's random effects) and the within-cell sums of squares
 * (σ² χ²_{n_c−1}), so lme4's penalised least squares on the trials (Bates et al. 2015, JSS 67(1),
 * eqs. 13–18) becomes: minimise Σ_c n_c (ȳ_c − μ − z_cᵀΛu)² + ‖u‖² plus the constant Σ W_c.
 * The Cholesky factor of [ΛᵀZᵀWZΛ + I, ·; Xᵀ…, ·; yᵀ…] is formed by eliminating, in turn, each
 * query's effect, each document's effects (a_d and its e_dj), then the crossed judge and
 * variant effects, the intercept and y: a nested-dissection order whose fill stays inside a
 * (1 + 2J + V + 2)-square block per document. Queries of one pattern (queryPatterns) share
 * everything but their cell means, so one evaluation costs O(P (2J + V)² + C (2J + V)) for P
 * patterns (one per document when every query has every judge and the same reruns).
 */
export interface RemlPieces {
  /** log |L_θ|² (lme4's ldL2). */
  readonly logDetL: number;
  /** R_X² (the intercept's pivot), so var(μ̂) = σ²/R_X². */
  readonly rx2: number;
  /** log R_X². */
  readonly logRx2: number;
  /** GLS intercept μ̂(θ). */
  readonly mean: number;
  /** Penalised residual sum of squares at μ̂(θ) over the trials (cells' part + Σ W_c). */
  readonly prss: number;
}

/** Offsets of the variables in one document's dense block. */
export interface Slots {
  readonly theta: Record<RandomComponent, number>;
  readonly hasQuery: boolean;
  readonly local: number; // a_d and e_dj
  readonly judgeLocal: number; // start of e_dj (or −1)
  readonly judgeGlobal: number; // start of c_j (or −1)
  readonly variantGlobal: number; // start of f_v (or −1)
  readonly mu: number;
  readonly y: number;
  readonly size: number;
}

export function slots(layout: FacetLayout, theta: ArrayLike<number>): Slots {
  const value: Record<RandomComponent, number> = {
    document: 0,
    query: 0,
    judge: 0,
    documentJudge: 0,
    variant: 0,
  };
  layout.components.forEach((k, i) => {
    value[k] = theta[i] as number;
  });
  const has = (k: RandomComponent) => layout.components.includes(k);
  const judgeLocal = has("documentJudge") ? 1 : -1;
  const local = 1 + (has("documentJudge") ? layout.judges : 0);
  let next = local;
  const judgeGlobal = has("judge") ? next : -1;
  if (has("judge")) next += layout.judges;
  const variantGlobal = has("variant") ? next : -1;
  if (has("variant")) next += layout.variants;
  return {
    theta: value,
    hasQuery: has("query"),
    local,
    judgeLocal,
    judgeGlobal,
    variantGlobal,
    mu: next,
    y: next + 1,
    size: next + 2,
  };
}

/**
 * Buffers of one evaluation (a few (size)² blocks, none O(cells)), made once per fit and
 * reused by every evaluation of the criterion and its gradient, with the queries' patterns.
 */
export class RemlWorkspace {
  readonly size: number;
  readonly block: Float64Array;
  readonly g: Float64Array;
  readonly global: Float64Array;
  readonly globalCompensation: Float64Array;
  /** The crossed effects' and μ's Schur complement with its y column, before elimination. */
  readonly schur: Float64Array;
  readonly idx = new Int32Array(6);
  readonly val = new Float64Array(6);
  /** Each document's queries grouped by the pattern of their cells (θ-independent). */
  readonly patterns: QueryPatterns;
  private sums: CellMeanSums | null = null;
  /**
   * When kept (`record`): each document's local rows of its block after its queries are
   * eliminated (documents × local × size), so remlGradient's pass need not rebuild them.
   */
  readonly documentRows: Float64Array | null;

  constructor(layout: FacetLayout, record = false) {
    const at = slots(
      layout,
      layout.components.map(() => 1),
    );
    this.size = at.size;
    this.block = new Float64Array(at.size * at.size);
    this.g = new Float64Array(at.size);
    this.global = new Float64Array(at.size * at.size);
    this.globalCompensation = new Float64Array(at.size * at.size);
    this.schur = new Float64Array(at.size * at.size);
    this.patterns = queryPatterns(layout);
    this.documentRows = record ? new Float64Array(layout.documents * at.local * at.size) : null;
  }

  /** The cell means' sums about `centre` (made on first use, once per fit). */
  meanSums(layout: FacetLayout, centre: number): CellMeanSums {
    if (this.sums?.centre !== centre) this.sums = cellMeanSums(layout, this.patterns, centre);
    return this.sums;
  }
}

/** The centring offset for y (the mean of the cell means), so the y pivot does not cancel. */
export function cellMeanCentre(layout: FacetLayout): number {
  const sum = new NeumaierSum();
  const { cells } = layout;
  for (let c = 0; c < layout.cellCount; c++)
    sum.add((cells.sum[c] as number) / (cells.n[c] as number));
  return sum.value() / layout.cellCount;
}

/** Symmetric Gaussian elimination of rows/columns [from, to) of an m×m block, in place. */
function eliminate(
  m: Float64Array,
  size: number,
  from: number,
  to: number,
  logDet: NeumaierSum,
): void {
  for (let i = from; i < to; i++) {
    const pivot = m[i * size + i] as number;
    logDet.add(Math.log(pivot));
    for (let r = i + 1; r < size; r++) {
      const f = (m[r * size + i] as number) / pivot;
      if (f === 0) continue;
      for (let s = i + 1; s < size; s++)
        m[r * size + s] = (m[r * size + s] as number) - f * (m[i * size + s] as number);
    }
  }
}

/**
 * One cell's row over the document block, into ws.idx / ws.val (k entries, returned): θ_D at
 * a_d, θ_DJ at e_dj, θ_J at c_j, θ_V at f_v, 1 at μ and the centred mean at y (last).
 */
export function cellRow(
  layout: FacetLayout,
  at: Slots,
  c: number,
  centre: number,
  ws: RemlWorkspace,
): number {
  const { cells } = layout;
  const { idx, val } = ws;
  let k = 0;
  idx[k] = 0;
  val[k++] = at.theta.document;
  if (at.judgeLocal >= 0 && cells.judge) {
    idx[k] = at.judgeLocal + (cells.judge[c] as number);
    val[k++] = at.theta.documentJudge;
  }
  if (at.judgeGlobal >= 0 && cells.judge) {
    idx[k] = at.judgeGlobal + (cells.judge[c] as number);
    val[k++] = at.theta.judge;
  }
  if (at.variantGlobal >= 0 && cells.variant) {
    idx[k] = at.variantGlobal + (cells.variant[c] as number);
    val[k++] = at.theta.variant;
  }
  idx[k] = at.mu;
  val[k++] = 1;
  idx[k] = at.y;
  val[k++] = (cells.sum[c] as number) / (cells.n[c] as number) - centre;
  return k;
}

/**
 * Document d's block in ws.block with its queries' effects b_dq eliminated (each query's
 * pivot 1 + θ_Q² Σ n_c and the Schur update g gᵀ / pivot), before the identity is added to
 * the local effects; kept in the workspace's record when it has one. Adds the query pivots'
 * logs to logDet when given.
 *
 * A cell's row is v_c + m_c e_y (m_c = ȳ_c − centre), v_c its pattern's (queryPatterns), and a
 * query's coupling θ_Q (P + t_q e_y), P = Σ_c n_c v_c and t_q = Σ_c n_c m_c, with a pivot the
 * pattern's. So the entries off y — Σ_c n_c v_c v_cᵀ − θ_Q² P Pᵀ / pivot per query — are the
 * pattern's first query's times its count; the y column is Σ_c n_c m_c v_c (the document's
 * sums per level, cellMeanSums) − θ_Q² P Σ_q t_q / pivot, and the corner Σ_c n_c m_c² −
 * θ_Q² Σ_q t_q² / pivot: O(patterns), not O(cells).
 */
export function documentBlock(
  layout: FacetLayout,
  at: Slots,
  centre: number,
  d: number,
  ws: RemlWorkspace,
  logDet: NeumaierSum | null,
): void {
  const { cells, order, queryStart } = layout;
  const { block, g, idx, val, patterns } = ws;
  const sums = ws.meanSums(layout, centre);
  const size = at.size;
  const y = at.y;
  const tq = at.theta.query;
  block.fill(0);
  const lastPattern = patterns.documentPatternStart[d + 1] as number;
  for (let p = patterns.documentPatternStart[d] as number; p < lastPattern; p++) {
    const count = (patterns.patternStart[p + 1] as number) - (patterns.patternStart[p] as number);
    // The pattern's part, from its first query: Σ_c n_c v_c v_cᵀ and θ_Q P, times count.
    const q0 = patterns.queries[patterns.patternStart[p] as number] as number;
    g.fill(0);
    let pivot = 1;
    for (let i = queryStart[q0] as number; i < (queryStart[q0 + 1] as number); i++) {
      const c = order[i] as number;
      const w = cells.n[c] as number;
      const k = cellRow(layout, at, c, centre, ws) - 1; // without y
      for (let r = 0; r < k; r++) {
        const wr = w * (val[r] as number);
        const row = (idx[r] as number) * size;
        for (let s = 0; s < k; s++)
          block[row + (idx[s] as number)] =
            (block[row + (idx[s] as number)] as number) + count * wr * (val[s] as number);
        g[idx[r] as number] = (g[idx[r] as number] as number) + wr * tq;
      }
      pivot += w * tq * tq;
    }
    if (!at.hasQuery) continue;
    // Eliminate the queries' effects b_dq: their pivots, and the Schur update, the y column
    // through Σ_q t_q and the corner through Σ_q t_q² (= spread + (Σ t_q)²/count).
    logDet?.add(count * Math.log(pivot));
    const sumT = sums.patternSum[p] as number;
    const sumT2 = (sums.patternSpread[p] as number) + (sumT * sumT) / count;
    for (let r = 0; r < y; r++) {
      const gr = (g[r] as number) / pivot;
      if (gr === 0) continue;
      for (let s = 0; s < y; s++)
        block[r * size + s] = (block[r * size + s] as number) - count * gr * (g[s] as number);
      const e = gr * tq * sumT;
      block[r * size + y] = (block[r * size + y] as number) - e;
      block[y * size + r] = (block[y * size + r] as number) - e;
    }
    block[y * size + y] = (block[y * size + y] as number) - (tq * tq * sumT2) / pivot;
  }
  // The cells' part of the y column: Σ_c n_c m_c times each level's θ (cellRow's entries).
  const addY = (r: number, value: number) => {
    block[r * size + y] = (block[r * size + y] as number) + value;
    block[y * size + r] = (block[y * size + r] as number) + value;
  };
  const total = sums.document[d] as number;
  addY(0, at.theta.document * total);
  if (cells.judge) {
    const judges = Math.max(layout.judges, 1);
    for (let j = 0; j < layout.judges; j++) {
      const tj = sums.documentJudge[d * judges + j] as number;
      if (at.judgeLocal >= 0) addY(at.judgeLocal + j, at.theta.documentJudge * tj);
      if (at.judgeGlobal >= 0) addY(at.judgeGlobal + j, at.theta.judge * tj);
    }
  }
  if (cells.variant && at.variantGlobal >= 0) {
    const variants = Math.max(layout.variants, 1);
    for (let v = 0; v < layout.variants; v++)
      addY(
        at.variantGlobal + v,
        at.theta.variant * (sums.documentVariant[d * variants + v] as number),
      );
  }
  addY(at.mu, total);
  block[y * size + y] = (block[y * size + y] as number) + (sums.documentSquares[d] as number);
  ws.documentRows?.set(block.subarray(0, at.local * size), d * at.local * size);
}

/**
 * lme4's REML pieces at θ; see RemlPieces. `centre` is subtracted from every cell mean.
 * Leaves in ws.schur the crossed effects' and μ's Schur complement (with the identity on the
 * crossed effects) and its y column, which remlGradient inverts.
 */
export function remlPieces(
  layout: FacetLayout,
  theta: ArrayLike<number>,
  centre: number,
  ws: RemlWorkspace = new RemlWorkspace(layout),
): RemlPieces {
  const at = slots(layout, theta);
  const size = at.size;
  const { block, global, globalCompensation } = ws;
  global.fill(0);
  globalCompensation.fill(0);
  const logDetL = new NeumaierSum();
  for (let d = 0; d < layout.documents; d++) {
    documentBlock(layout, at, centre, d, ws, logDetL);
    for (let i = 0; i < at.local; i++) block[i * size + i] = (block[i * size + i] as number) + 1;
    eliminate(block, size, 0, at.local, logDetL);
    // Add the document's Schur complement on the crossed effects, μ and y (compensated).
    for (let r = at.local; r < size; r++) {
      for (let s = at.local; s < size; s++) {
        const j = r * size + s;
        const x = block[j] as number;
        const t = (global[j] as number) + x;
        const before = global[j] as number;
        globalCompensation[j] =
          (globalCompensation[j] as number) +
          (Math.abs(before) >= Math.abs(x) ? before - t + x : x - t + before);
        global[j] = t;
      }
    }
  }
  for (let j = 0; j < size * size; j++)
    global[j] = (global[j] as number) + (globalCompensation[j] as number);
  for (let i = at.local; i < at.mu; i++)
    global[i * size + i] = (global[i * size + i] as number) + 1;
  ws.schur.set(global);
  eliminate(global, size, at.local, at.mu, logDetL);
  const rx2 = global[at.mu * size + at.mu] as number;
  const xy = global[at.mu * size + at.y] as number;
  const yy = global[at.y * size + at.y] as number;
  return {
    logDetL: logDetL.value(),
    rx2,
    logRx2: Math.log(rx2),
    mean: centre + xy / rx2,
    prss: yy - (xy * xy) / rx2 + ws.meanSums(layout, centre).within,
  };
}

/** lme4's profiled REML criterion (σ² at its REML estimate), Bates et al. 2015 eq. 41; p = 1. */
export function profiledReml(layout: FacetLayout, pieces: RemlPieces): number {
  const dfResidual = layout.observations - 1;
  return (
    pieces.logDetL +
    pieces.logRx2 +
    dfResidual * (1 + Math.log((2 * Math.PI * pieces.prss) / dfResidual))
  );
}
