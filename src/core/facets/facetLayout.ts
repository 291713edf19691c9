import { RagciError } from "../errors.js";
import type { FacetCells, FacetComponent } from "./facetCells.js";

/** The random effects a faceted fit can have (the residual is always there). */
export type RandomComponent = Exclude<FacetComponent, "residual">;

/**
 * How the cells hang together: cells ordered by (document, query), the group boundaries, the
 * level counts, and which random components the data identify. Built once per fit, O(C log C).
 */
export interface FacetLayout {
  readonly cells: FacetCells;
  /** Cell indices ordered by document, then query. */
  readonly order: Int32Array;
  /** Cells of query group g are order[queryStart[g] .. queryStart[g + 1]). */
  readonly queryStart: Int32Array;
  /** Query groups of document group d are queryStart indices documentStart[d] .. documentStart[d + 1]). */
  readonly documentStart: Int32Array;
  readonly documents: number;
  readonly queries: number;
  /** Judge and variant codes' range (0 when the facet is absent; codes without cells count). */
  readonly judges: number;
  readonly variants: number;
  /** (document, judge) pairs that have a cell. */
  readonly documentJudges: number;
  readonly cellCount: number;
  /** Observations: cells plus their within-cell degrees of freedom (Σ n_c for trial cells). */
  readonly observations: number;
  /** Random components fitted, in FacetComponent order. */
  readonly components: readonly RandomComponent[];
}

function refuse(message: string): never {
  throw new RagciError("invalid-value", `facet cells: ${message}`);
}

/** Within-cell degrees of freedom of cell c (n − 1 unless given). */
export function withinDf(cells: FacetCells, c: number): number {
  return cells.withinDegreesOfFreedom
    ? (cells.withinDegreesOfFreedom[c] as number)
    : (cells.n[c] as number) - 1;
}

/**
 * Checks the cells and lays them out. A component is fitted only when the data can tell it
 * from its neighbours (lme4 would otherwise fit an unidentified ridge): query within document
 * when some document has two queries and the residual has replication beyond queries (more
 * cells than queries, or reruns); judge and variant when the facet has two levels or more;
 * document × judge when it is not the cell itself (more cells than (document, judge) pairs, or
 * reruns).
 *
 * @throws RagciError "invalid-value" on inconsistent arrays, a query in two documents, n ≤ 0,
 *   a negative within sum of squares, or fewer than two documents
 */
export function facetLayout(cells: FacetCells): FacetLayout {
  const count = cells.n.length;
  for (const [name, array] of [
    ["document", cells.document],
    ["query", cells.query],
    ["sum", cells.sum],
    ["withinSumOfSquares", cells.withinSumOfSquares],
    ["judge", cells.judge],
    ["variant", cells.variant],
    ["withinDegreesOfFreedom", cells.withinDegreesOfFreedom],
  ] as const) {
    if (array && array.length !== count)
      refuse(`${name} has ${array.length} entries for ${count} cells; give one per cell`);
  }
  if (count === 0) refuse("no cells; the fit needs results in at least two documents");
  let documents = 0;
  let queries = 0;
  let judges = 0;
  let variants = 0;
  let withinTotal = 0;
  for (let c = 0; c < count; c++) {
    const n = cells.n[c] as number;
    const w = cells.withinSumOfSquares[c] as number;
    const f = withinDf(cells, c);
    if (!(n > 0) || !Number.isFinite(n)) refuse(`cell ${c} has n = ${n}; every cell needs n > 0`);
    if (!Number.isFinite(cells.sum[c] as number)) refuse(`cell ${c} has a non-finite sum`);
    if (!(w >= 0) || !Number.isFinite(w))
      refuse(`cell ${c} has within sum of squares ${w}; it must be finite and ≥ 0`);
    if (!(f >= 0)) refuse(`cell ${c} has ${f} within degrees of freedom; it must be ≥ 0`);
    if (f === 0 && w > 0)
      refuse(`cell ${c} has a within sum of squares but no within degrees of freedom`);
    withinTotal += f;
    const d = cells.document[c] as number;
    const q = cells.query[c] as number;
    if (d < 0 || q < 0) refuse(`cell ${c} has a negative code`);
    documents = Math.max(documents, d + 1);
    queries = Math.max(queries, q + 1);
    if (cells.judge) judges = Math.max(judges, (cells.judge[c] as number) + 1);
    if (cells.variant) variants = Math.max(variants, (cells.variant[c] as number) + 1);
  }
  const judgesSeen = new Set(cells.judge ?? []).size;
  const variantsSeen = new Set(cells.variant ?? []).size;
  const queryDocument = new Int32Array(queries).fill(-1);
  for (let c = 0; c < count; c++) {
    const d = cells.document[c] as number;
    const q = cells.query[c] as number;
    const seen = queryDocument[q] as number;
    if (seen >= 0 && seen !== d)
      refuse(
        `query ${q} appears in documents ${seen} and ${d}; a query belongs to one document, so number queries across documents`,
      );
    queryDocument[q] = d;
  }
  const order = Int32Array.from({ length: count }, (_, c) => c);
  order.sort((a, b) => {
    const dd = (cells.document[a] as number) - (cells.document[b] as number);
    return dd !== 0 ? dd : (cells.query[a] as number) - (cells.query[b] as number);
  });
  const queryStart: number[] = [];
  const documentStart: number[] = [];
  const documentJudge = new Set<number>();
  let previousDocument = -1;
  let previousQuery = -1;
  let documentsSeen = 0;
  let maxQueriesInDocument = 0;
  let queriesInDocument = 0;
  for (let i = 0; i < count; i++) {
    const c = order[i] as number;
    const d = cells.document[c] as number;
    const q = cells.query[c] as number;
    if (d !== previousDocument) {
      documentStart.push(queryStart.length);
      documentsSeen++;
      queriesInDocument = 0;
      previousDocument = d;
      previousQuery = -1;
    }
    if (q !== previousQuery) {
      queryStart.push(i);
      queriesInDocument++;
      maxQueriesInDocument = Math.max(maxQueriesInDocument, queriesInDocument);
      previousQuery = q;
    }
    if (cells.judge) documentJudge.add(d * judges + (cells.judge[c] as number));
  }
  documentStart.push(queryStart.length);
  queryStart.push(count);
  if (documentsSeen < 2)
    throw new RagciError(
      "too-few-documents",
      `facet cells: ${documentsSeen} document; a variance decomposition needs results in at least two documents`,
    );
  const queryGroups = documentStart[documentStart.length - 1] as number;
  const replicated = withinTotal > 0;
  const components: RandomComponent[] = ["document"];
  if (maxQueriesInDocument > 1 && (count > queryGroups || replicated)) components.push("query");
  if (judgesSeen >= 2) components.push("judge");
  if (judgesSeen >= 2 && (count > documentJudge.size || replicated))
    components.push("documentJudge");
  if (variantsSeen >= 2) components.push("variant");
  return {
    cells,
    order,
    queryStart: Int32Array.from(queryStart),
    documentStart: Int32Array.from(documentStart),
    documents: documentsSeen,
    queries: queryGroups,
    judges: cells.judge ? judges : 0,
    variants: cells.variant ? variants : 0,
    documentJudges: documentJudge.size,
    cellCount: count,
    observations: count + withinTotal,
    components,
  };
}
