/**
 * What a database read is given: where the per-query rows are and which of their columns are
 * what (sourceRowsSql.ts builds the statements on them; aliasShadowing.ts checks the names).
 */

/** Where the per-query rows are: a table, or the user's own SELECT. */
export type SqlSource = { readonly table: string } | { readonly sql: string };

/** The columns of the per-query rows, as the user names them. */
export interface SourceColumns {
  readonly doc: string;
  readonly metrics: readonly string[];
  /** System column; null for rows of one system. */
  readonly system: string | null;
  /** Keep only these systems' rows; null keeps every system. */
  readonly systems: readonly string[] | null;
  /** Query id column (pairing, and the repeated-query check); null without one. */
  readonly query: string | null;
  /**
   * A per-document column carried into the per-document table (a design's stratum or
   * first-stage unit): one non-empty value per document, checked like the file path's.
   */
  readonly label?: string | null;
  /** The facet columns (null: that facet absent); given, the rows also have t, j and w. */
  readonly facets?: FacetColumnNames | null;
}

/** The rerun (epoch, repeat), judge (grader) and prompt-wording columns of faceted rows. */
export interface FacetColumnNames {
  readonly trial: string | null;
  readonly judge: string | null;
  readonly variant: string | null;
}
