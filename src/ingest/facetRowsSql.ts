import { normalizedRowsSql } from "./normalizedRows.js";

/** The columns of a per-query (per-trial) file that the facet statements read. */
export interface FacetColumns {
  /** A table function over the file. */
  readonly source: string;
  readonly documentColumn: string;
  /** SQL giving the system as VARCHAR (a column, or a literal for one file per system). */
  readonly systemSql: string | null;
  readonly queryColumn: string;
  /** The rerun (epoch, repeat) column; null: one trial per cell. */
  readonly trialColumn: string | null;
  /** The judge (grader, scorer) column; null: no judge facet. */
  readonly judgeColumn: string | null;
  /** The prompt-wording column; null: no variant facet. */
  readonly variantColumn: string | null;
  readonly metrics: readonly string[];
}

/**
 * The file's rows as normalizedRowsSql's, with the facets: doc, sys, q, t, j, w (VARCHAR, or
 * the file's own values with `keys` "raw") and v0, v1, … (DOUBLE, NULL where a value is not a
 * number) — what sql/facetCellsSql.ts groups.
 */
export function facetRowsSql(c: FacetColumns, keys: "text" | "raw" = "text"): string {
  return normalizedRowsSql({
    keys,
    source: c.source,
    documentColumn: c.documentColumn,
    systemSql: c.systemSql,
    queryColumn: c.queryColumn,
    metrics: c.metrics,
    facets: c,
  });
}
