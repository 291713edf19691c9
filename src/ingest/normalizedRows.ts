import { sqlIdentifier } from "./inputFormat.js";

export interface NormalizedRowsSpec {
  /** A table function over one input file. */
  readonly source: string;
  readonly documentColumn: string;
  /** SQL giving the system (a column cast to VARCHAR, or a literal for one file per system). */
  readonly systemSql?: string | null;
  readonly queryColumn?: string | null;
  readonly metrics: readonly string[];
  readonly labelColumn?: string | null;
}

/** A column cast to VARCHAR, the form ids and labels are compared in. */
export function textOf(column: string): string {
  return `CAST(${sqlIdentifier(column)} AS VARCHAR)`;
}

/**
 * One input's rows in the readers' common shape, in file order: doc, sys, q and lab as VARCHAR
 * (NULL where the input has none) and the metrics as v0, v1, … (DOUBLE, NULL where a value is
 * not a number). The row checks (validateRows.ts) and the aggregations are written against it.
 */
export function normalizedRowsSql(spec: NormalizedRowsSpec): string {
  const values = spec.metrics.map((m, i) => `TRY_CAST(${sqlIdentifier(m)} AS DOUBLE) AS v${i}`);
  return `SELECT ${[
    `${textOf(spec.documentColumn)} AS doc`,
    `${spec.systemSql ?? "NULL::VARCHAR"} AS sys`,
    `${spec.queryColumn ? textOf(spec.queryColumn) : "NULL::VARCHAR"} AS q`,
    `${spec.labelColumn ? textOf(spec.labelColumn) : "NULL::VARCHAR"} AS lab`,
    ...values,
  ].join(", ")} FROM ${spec.source}`;
}
