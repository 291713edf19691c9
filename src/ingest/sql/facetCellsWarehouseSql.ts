import type { Dialect } from "./dialects.js";
import { facetCellsSql } from "./facetCellsSql.js";
import { type SourceColumns, type SqlSource, sourceRowsSelect } from "./sourceRowsSql.js";

/** The columns of a faceted per-query (per-trial) table, as the user names them. */
export interface FacetSourceColumns extends Omit<SourceColumns, "query" | "label" | "facets"> {
  /** The query id column (cells are per query). */
  readonly query: string;
  /** The rerun (epoch, repeat) column; null: one trial per cell. */
  readonly trial: string | null;
  /** The judge (grader, scorer) column; null: no judge facet. */
  readonly judge: string | null;
  /** The prompt-wording column; null: no variant facet. */
  readonly variant: string | null;
}

/**
 * facetCellsSql.ts's GROUP BY over a database's rows (sourceRowsSelect: the systems chosen, a
 * value that is not a number fails the CAST in the database), in its dialect.
 * @throws RagciError for a column an alias of the statement would hide (aliasShadowing.ts)
 */
export function facetCellsWarehouseSql(
  d: Dialect,
  source: SqlSource,
  c: FacetSourceColumns,
): string {
  const { trial, judge, variant, ...ids } = c;
  const rows = sourceRowsSelect(d, source, { ...ids, facets: { trial, judge, variant } });
  return facetCellsSql(d, rows, c.metrics.length);
}
