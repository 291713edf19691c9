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
  /** The facet columns (null: that facet absent); given, the rows also have t, j and w. */
  readonly facets?: {
    readonly trialColumn: string | null;
    readonly judgeColumn: string | null;
    readonly variantColumn: string | null;
  } | null;
  /**
   * "raw": doc, q, t, j and w as the file's own values, not VARCHAR, for a statement that
   * groups by them and casts only its groups (facetCellsSql): grouping 10⁷ rows by integers
   * instead of their text took half the time. The groups are the same, as casting to VARCHAR
   * is one to one on a column's values (but for a float column holding both 0.0 and −0.0).
   */
  readonly keys?: "text" | "raw";
}

/** A column cast to VARCHAR, the form ids and labels are compared in. */
export function textOf(column: string): string {
  return `CAST(${sqlIdentifier(column)} AS VARCHAR)`;
}

/**
 * One input's rows in the readers' common shape, in file order: doc, sys, q and lab as VARCHAR
 * (NULL where the input has none) and the metrics as v0, v1, … (DOUBLE, NULL where a value is
 * not a number). The row checks (validateRows.ts) and the aggregations are written against it;
 * with facets, also t, j and w (VARCHAR), which the facet cells group by (sql/facetCellsSql.ts).
 */
export function normalizedRowsSql(spec: NormalizedRowsSpec): string {
  const values = spec.metrics.map((m, i) => `TRY_CAST(${sqlIdentifier(m)} AS DOUBLE) AS v${i}`);
  const key = spec.keys === "raw" ? sqlIdentifier : textOf;
  const orNull = (column: string | null): string => (column ? key(column) : "NULL::VARCHAR");
  return `SELECT ${[
    `${key(spec.documentColumn)} AS doc`,
    `${spec.systemSql ?? "NULL::VARCHAR"} AS sys`,
    `${spec.queryColumn ? key(spec.queryColumn) : "NULL::VARCHAR"} AS q`,
    `${spec.labelColumn ? textOf(spec.labelColumn) : "NULL::VARCHAR"} AS lab`,
    ...(spec.facets
      ? [
          `${orNull(spec.facets.trialColumn)} AS t`,
          `${orNull(spec.facets.judgeColumn)} AS j`,
          `${orNull(spec.facets.variantColumn)} AS w`,
        ]
      : []),
    ...values,
  ].join(", ")} FROM ${spec.source}`;
}
