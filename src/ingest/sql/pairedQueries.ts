import type { Dialect } from "./dialects.js";
import { type GroupedSums, groupedSumsSql, type MetricSums } from "./perDocumentSums.js";

/** The systems' rows to pair: normalised rows (doc, sys, q, lab as text; v0, v1, … doubles). */
export interface PairedQueriesSpec {
  /** What is read: a table or a CTE of normalised rows (sourceRowsSql.ts, normalizedRows.ts). */
  readonly from: string;
  /** The systems, in the order of their columns n0, n1, … and x0_*, x1_*, …. */
  readonly systems: readonly string[];
  /** How many metrics (v0, v1, …). */
  readonly metrics: number;
  /** Carry the query's label (query_lab). */
  readonly label: boolean;
}

/**
 * The systems' rows matched on the query, one row per query — the one pairing of files
 * (readPairedResults.ts, on DuckDB) and databases (perDocumentSql.ts, in the warehouse's
 * dialect): q; its document (query_doc, with docs = how many documents it is under); its label
 * (query_lab); per system si how many rows it has (n`si`: 0 when the query is missing from it,
 * more than 1 when repeated) and per metric mi its value (x`si`_`mi`, the max of one value).
 */
export function pairedQueriesSql(d: Dialect, spec: PairedQueriesSpec): string {
  const columns = [
    "q",
    // Not "min(doc) AS doc": ClickHouse reads an alias anywhere in its SELECT, so count(DISTINCT
    // doc) would count min(doc), an aggregate inside an aggregate, which it refuses.
    "min(doc) AS query_doc",
    "count(DISTINCT doc) AS docs",
    ...(spec.label ? ["min(lab) AS query_lab"] : []),
    ...spec.systems.map(
      (s, si) => `sum(CASE WHEN sys = ${d.string(s)} THEN 1 ELSE 0 END) AS n${si}`,
    ),
    ...spec.systems.flatMap((s, si) =>
      Array.from(
        { length: spec.metrics },
        (_, mi) => `max(CASE WHEN sys = ${d.string(s)} THEN v${mi} END) AS ${pairedValue(si, mi)}`,
      ),
    ),
  ];
  return `SELECT ${columns.join(",\n    ")}\n  FROM ${spec.from} GROUP BY q`;
}

/** System `si`'s value of metric `mi` on a paired query. */
export function pairedValue(si: number, mi: number): string {
  return `x${si}_${mi}`;
}

/** The per-query difference b − a of metric `mi` (a, b among `systems`). */
export function pairedDifference(
  systems: readonly string[],
  [a, b]: readonly [string, string],
  mi: number,
): string {
  return `(${pairedValue(systems.indexOf(b), mi)} - ${pairedValue(systems.indexOf(a), mi)})`;
}

/** A paired query with a result from each of the `systems` systems. */
export function completeQuery(systems: number): string {
  return Array.from({ length: systems }, (_, si) => `n${si} > 0`).join(" AND ");
}

/** A query system `si` has that another system has not (left out, or refused). */
export function unpairedQuery(si: number, systems: number): string {
  return `n${si} > 0 AND NOT (${completeQuery(systems)})`;
}

/** A query system `si` has more than one result for. */
export function repeatedQuery(si: number): string {
  return `n${si} > 1`;
}

/** A query under more than one document. */
export const SPLIT_QUERY = "docs > 1";

/**
 * The per-document sums of `metric.x` (a pairedValue or a pairedDifference) over the paired
 * queries `from` (pairedQueriesSql's rows), grouped by the query's document under `doc`.
 */
export function pairedSumsSql(
  d: Dialect,
  spec: Omit<GroupedSums, "keys" | "metrics"> & { readonly metric: MetricSums },
): string {
  const { metric, ...rest } = spec;
  return groupedSumsSql(d, { ...rest, keys: [["query_doc", "doc"]], metrics: [metric] });
}
