import type { AggregatedOption } from "./identity.js";

export interface ReadResultsOptions {
  /** Path read (by DuckDB, or by readSmallResults for a small CSV). */
  readonly file: string;
  /** How the file is named in messages (e.g. "stdin"); defaults to `file`. */
  readonly displayName?: string;
  readonly format?: string | null;
  /** Document id column; default the first of doc_id, doc, document_id, document. */
  readonly doc?: string | null;
  /** Metric columns; default the only numeric column that is not an id. */
  readonly metrics?: readonly string[] | null;
  /** System column: one set of aggregates per system. */
  readonly system?: string | null;
  /**
   * Without `system`: split by this column when the file has one, so that a file of several
   * systems is analysed per system instead of pooled; default "system" (null: never).
   */
  readonly systemIfPresent?: string | null;
  /**
   * The query id column, checked for repeats whatever the number of rows. Without it, a column
   * with a usual query id name is checked up to `queryCheckRowLimit` rows.
   */
  readonly query?: string | null;
  /** Default QUERY_CHECK_ROW_LIMIT (queryIdCheck.ts). */
  readonly queryCheckRowLimit?: number;
  /** The option a refusal of a per-document table names (AggregatedOption); default `aggregated`. */
  readonly aggregatedOption?: AggregatedOption | undefined;

  readonly threads?: number;
  /**
   * Also return the per-query values of non-binary metrics (for the chunk bootstrap) when a
   * system has at most this many results; default 0 (never).
   */
  readonly valuesUpTo?: number;
  /** A per-document label column (stratum or first-stage unit); one value per document. */
  readonly documentLabel?: string | null;
  /** Told how far each pass over the file is (DuckDB's estimate, 0–1) while it runs. */
  readonly onProgress?: (pass: ReadingPass, fraction: number) => void;
}

/**
 * The passes over a results file: the GROUP BY per document, the query-id repeat check; over a
 * run scored out of core (trecRun/scoreRunOutOfCore.ts): parsing, checking, sorting, scoring.
 */
export type ReadingPass =
  | "aggregating"
  | "checking query ids"
  | "parsing the run"
  | "checking the run"
  | "sorting the run"
  | "scoring the run";

/** readResults' layout request: split by a `system` column unless told otherwise. */
export function readResultsLayoutRequest(options: ReadResultsOptions): ReadResultsOptions {
  return {
    ...options,
    systemIfPresent: options.systemIfPresent ?? (options.system ? null : "system"),
  };
}
