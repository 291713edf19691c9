import { roundedLog2 } from "./roundedLog2.js";

/**
 * The cut-offs trec_eval computes by default (`-m all_trec`): P, recall, map_cut and ndcg_cut
 * at m_P.c's, m_recall.c's, m_map_cut.c's and m_ndcg_cut.c's list, success at m_success.c's.
 */
export const DEFAULT_CUTOFFS = {
  P: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  map_cut: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  recall: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  ndcg_cut: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  success: [1, 5, 10],
} as const;

export type CutoffMeasure = keyof typeof DEFAULT_CUTOFFS;

/** Which cut-offs to compute for each measure that has them. */
export type Cutoffs = Readonly<Record<CutoffMeasure, readonly number[]>>;

/** A grade at or above which a document is relevant (trec_eval's -l, default 1). */
const RELEVANT = 1;

/**
 * A query's measures as trec_eval 10.0 computes them (`-q`, default options), named as it
 * prints them, from the grades of its ranking (rankedGrades) and the counts of its judged
 * documents by grade (`levels[g]`: documents judged g ≥ 0, retrieved or not; form_res_rels.c
 * rel_levels). Every value is computed in double precision with the operations in trec_eval's
 * order, so that it equals trec_eval's to the last bit.
 */
export function trecMeasures(
  grades: readonly number[],
  levels: readonly number[],
  cutoffs: Cutoffs,
): Record<string, number> {
  const numRet = grades.length;
  let numRel = 0;
  for (let g = RELEVANT; g < levels.length; g++) numRel += levels[g] ?? 0;
  const relevantAt = (i: number) => (grades[i] as number) >= RELEVANT;
  /** Relevant documents among the first k retrieved. */
  const relevantInTop = prefixCounts(grades);
  const topCount = (k: number) => relevantInTop[Math.min(k, numRet)] as number;
  const out: Record<string, number> = {};

  // m_num_ret.c, m_num_rel.c, m_num_rel_ret.c are counts; left out (not scores).

  // m_map.c: precision at each relevant retrieved document, summed in rank order, over num_rel;
  // m_map_cut.c: the same sum over the first k documents.
  const precisionSums = [0];
  let sum = 0;
  let relSoFar = 0;
  for (let i = 0; i < numRet; i++) {
    if (relevantAt(i)) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
    precisionSums.push(sum);
  }
  out.map = relSoFar > 0 ? sum / numRel : 0;
  for (const k of cutoffs.map_cut)
    out[`map_cut_${k}`] =
      numRel === 0 ? 0 : (precisionSums[Math.min(k, numRet)] as number) / numRel;

  // m_Rprec.c: precision after min(R, num_ret) documents, over R.
  const rLook = Math.min(numRet, numRel);
  out.Rprec = rLook === 0 ? 0 : topCount(rLook) / numRel;

  // m_bpref.c: for each relevant retrieved document, the share of the first R judged
  // non-relevant documents it is ranked above; unjudged documents are skipped.
  const numNonrel = levels[0] ?? 0;
  let bpref = 0;
  let nonrelSoFar = 0;
  for (let i = 0; i < numRet; i++) {
    const g = grades[i] as number;
    if (g < 0) continue;
    if (g < RELEVANT) nonrelSoFar++;
    else if (nonrelSoFar > 0)
      bpref += 1 - Math.min(nonrelSoFar, numRel) / Math.min(numNonrel, numRel);
    else bpref += 1;
  }
  out.bpref = numRel > 0 ? bpref / numRel : bpref;

  // m_recip_rank.c: 1 / rank of the first relevant document.
  let first = 0;
  while (first < numRet && !relevantAt(first)) first++;
  out.recip_rank = first < numRet ? 1 / (first + 1) : 0;

  // m_P.c: relevant in the first k over k (k, not the number retrieved).
  for (const k of cutoffs.P) out[`P_${k}`] = topCount(k) / k;
  // m_recall.c: relevant in the first k over num_rel; 0 without relevant documents.
  for (const k of cutoffs.recall) out[`recall_${k}`] = numRel === 0 ? 0 : topCount(k) / numRel;
  // m_success.c: 1 when a relevant document is in the first k.
  for (const k of cutoffs.success) out[`success_${k}`] = topCount(k) > 0 ? 1 : 0;

  // m_ndcg.c (default gains: the grade) and m_ndcg_cut.c: gain / log2(rank + 1) summed in rank
  // order, over the same sum for the ideal ranking (judged grades, highest first).
  const dcg = prefixDcg(grades.map((g) => Math.max(g, 0)));
  const ideal = prefixDcg(idealGrades(levels));
  const idealAll = ideal[ideal.length - 1] as number;
  out.ndcg = idealAll > 0 ? (dcg[numRet] as number) / idealAll : 0;
  for (const k of cutoffs.ndcg_cut) {
    const idealK = ideal[Math.min(k, ideal.length - 1)] as number;
    const dcgK = dcg[Math.min(k, numRet)] as number;
    out[`ndcg_cut_${k}`] = idealK > 0 ? dcgK / idealK : dcgK;
  }
  return out;
}

/** counts[k]: relevant documents among the first k. */
function prefixCounts(grades: readonly number[]): number[] {
  const counts = [0];
  let c = 0;
  for (const g of grades) {
    if (g >= RELEVANT) c++;
    counts.push(c);
  }
  return counts;
}

/** sums[k]: Σ gain / log2(i + 2) over the first k, adding only non-zero gains (as trec_eval). */
function prefixDcg(gains: readonly number[]): number[] {
  const sums = [0];
  let s = 0;
  gains.forEach((gain, i) => {
    if (gain > 0) s += gain / roundedLog2(i + 2);
    sums.push(s);
  });
  return sums;
}

/** The ideal ranking's gains: each grade ≥ 1 as often as it is judged, highest first. */
function idealGrades(levels: readonly number[]): number[] {
  const gains: number[] = [];
  for (let g = levels.length - 1; g >= RELEVANT; g--)
    for (let n = 0; n < (levels[g] ?? 0); n++) gains.push(g);
  return gains;
}
