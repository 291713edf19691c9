import { byteOrder } from "./byteOrder.js";

/** One retrieved document of a query, as the run gives it (its rank column is ignored). */
export interface Retrieved {
  readonly docno: string;
  readonly score: number;
}

/** A retrieved document the qrels do not judge (form_res_rels.c: RELVALUE_NONPOOL). */
export const NOT_JUDGED = -1;
/** A retrieved document judged with a negative grade (form_res_rels.c: RELVALUE_UNJUDGED). */
export const IN_POOL_UNJUDGED = -2;

/**
 * The grades of a query's retrieved documents in trec_eval's order (form_res_rels.c,
 * comp_sim_docno): score descending, ties by docno descending in strcmp's order; the run's
 * rank column is not used. A document the qrels do not judge is NOT_JUDGED, one judged with a
 * negative grade IN_POOL_UNJUDGED.
 *
 * @returns the grades, or the first docno retrieved twice (trec_eval stops: "duplicate docs")
 */
export function rankedGrades(
  retrieved: readonly Retrieved[],
  judgements: ReadonlyMap<string, number>,
): { readonly grades: readonly number[] } | { readonly duplicate: string } {
  const seen = new Set<string>();
  for (const r of retrieved) {
    if (seen.has(r.docno)) return { duplicate: r.docno };
    seen.add(r.docno);
  }
  const order = [...retrieved].sort((a, b) =>
    a.score > b.score ? -1 : a.score < b.score ? 1 : byteOrder(b.docno, a.docno),
  );
  return {
    grades: order.map((r) => {
      const grade = judgements.get(r.docno);
      if (grade === undefined) return NOT_JUDGED;
      return grade < 0 ? IN_POOL_UNJUDGED : grade;
    }),
  };
}
