import type { Dialect } from "./dialects.js";

/** The averaged rows' column names: the source's own (the document, system, query, metrics). */
export interface AveragedNames {
  readonly doc: string;
  /** The system column written; null leaves the system out (one system, or one file per system). */
  readonly system: string | null;
  readonly query: string;
  readonly metrics: readonly string[];
}

/**
 * Faceted per-query rows as one row per (system, document, query), each metric the mean of the
 * query's trials, judges and variants — what the per-document (mean) path reads: reruns and
 * graders nested in a query are averaged into its result, as the tools' default reducers do.
 * `rows` is a SELECT of doc, sys, q, v0, v1, … (normalizedRowsSql for a file, sourceRowsSelect
 * for a database); the columns come out under the source's own names. The inner names are
 * ragci_*, so that no alias is also a column the same SELECT reads (ClickHouse resolves names
 * to aliases first). `ordered`: by system, document, query (a file written for DuckDB).
 */
export function averagedRowsSql(
  d: Dialect,
  rows: string,
  names: AveragedNames,
  ordered: boolean,
): string {
  const inner = [
    "doc AS ragci_doc",
    "sys AS ragci_sys",
    "q AS ragci_q",
    ...names.metrics.map((_, i) => `avg(v${i}) AS ragci_m${i}`),
  ];
  const outer = [
    `ragci_doc AS ${d.identifier(names.doc)}`,
    ...(names.system ? [`ragci_sys AS ${d.identifier(names.system)}`] : []),
    `ragci_q AS ${d.identifier(names.query)}`,
    ...names.metrics.map((m, i) => `ragci_m${i} AS ${d.identifier(m)}`),
  ];
  const order = ordered ? " ORDER BY ragci_sys NULLS FIRST, ragci_doc, ragci_q" : "";
  return `SELECT ${outer.join(", ")} FROM (SELECT ${inner.join(", ")} FROM (${rows}) AS ragci_rows GROUP BY sys, doc, q) AS ragci_averaged${order}`;
}
