import { type CutoffMeasure, type Cutoffs, DEFAULT_CUTOFFS } from "./trecMeasures.js";

/**
 * The names of a measure at a cut-off k that ragci resolves to trec_eval's (resolveColumns.ts:
 * loose match and its cut-off families), lower case without punctuation: hit@3 → success_3,
 * ndcg@3 → ndcg_cut_3, map@3 → map_cut_3, P@3 → P_3, recall@3 → recall_3.
 */
const FAMILIES: Readonly<Record<string, CutoffMeasure>> = {
  p: "P",
  recall: "recall",
  success: "success",
  hit: "success",
  hits: "success",
  hitrate: "success",
  ndcg: "ndcg_cut",
  ndcgcut: "ndcg_cut",
  map: "map_cut",
  mapcut: "map_cut",
};

/**
 * trec_eval's default cut-offs plus those the --metric names ask for (trec_eval computes one
 * with `-m success.3`), each list ascending.
 */
export function askedCutoffs(asked: readonly string[] | null | undefined): Cutoffs {
  const extra: Record<CutoffMeasure, Set<number>> = {
    P: new Set(DEFAULT_CUTOFFS.P),
    recall: new Set(DEFAULT_CUTOFFS.recall),
    success: new Set(DEFAULT_CUTOFFS.success),
    ndcg_cut: new Set(DEFAULT_CUTOFFS.ndcg_cut),
    map_cut: new Set(DEFAULT_CUTOFFS.map_cut),
  };
  for (const name of asked ?? []) {
    const match = /^([a-z]+)(\d+)$/.exec(name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""));
    const family = match ? FAMILIES[match[1] as string] : undefined;
    const k = match ? Number(match[2]) : 0;
    if (family && Number.isSafeInteger(k) && k >= 1) extra[family].add(k);
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    P: sorted(extra.P),
    recall: sorted(extra.recall),
    success: sorted(extra.success),
    ndcg_cut: sorted(extra.ndcg_cut),
    map_cut: sorted(extra.map_cut),
  };
}
