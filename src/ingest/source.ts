import type { Readable } from "node:stream";
import type { AggregatedOption } from "./identity.js";
import type { ReadingPass } from "./readResults.js";
import type { Environment } from "./sql/databaseUrl.js";

/**
 * Files of per-query results (CSV, TSV, JSONL, Parquet, or an evaluation tool's output), or
 * per-document tables with `aggregated`; "-" is `stdin`, spooled to a temporary file first.
 */
export interface FilesSource {
  readonly files: readonly string[];
  /** What "-" reads. */
  readonly stdin?: Readable | undefined;
  /** csv, tsv, jsonl, parquet or a tool's name; default from the extension or the content. */
  readonly format?: string | null | undefined;
  /** The files are per-document tables (doc, n, s[, ss]), not per-query results. */
  readonly aggregated?: boolean | undefined;
  /** Document id column (or a tool's field); default doc_id, doc, document_id or document. */
  readonly doc?: string | null | undefined;
  /** trec_eval and TREC runs: a table of query id → document. */
  readonly docMap?: string | null | undefined;
  /** TREC runs: the qrels file they are scored against, with trec_eval's measures. */
  readonly qrels?: string | null | undefined;
  /** TREC runs: score the qrels' queries a run lacks as empty rankings (trec_eval -c). */
  readonly completeQueries?: boolean | undefined;
  /** Keep the items a tool records as provider errors (promptfoo) as failures, scored 0. */
  readonly errorsAsFailures?: boolean | undefined;
  /** Query id column; default detected. */
  readonly query?: string | null | undefined;
  /** DuckDB's threads; default all cores. */
  readonly threads?: number | undefined;
  /**
   * Facets (readFacetCells.ts): the rerun column (epoch, repeat), the judge (grader) column and
   * the prompt-wording column. With any of them the read also returns the per-cell sums, and the
   * per-document tables average each query over its trials, judges and variants. For an
   * evaluation tool's output they name the tool's own: trial "epoch" (Inspect), "repeat"
   * (promptfoo), "trial" (evalite); judge "scorer" (Inspect's scorers), "grader" (promptfoo's
   * grading assertions).
   */
  readonly trial?: string | null | undefined;
  readonly judge?: string | null | undefined;
  readonly variant?: string | null | undefined;
}

/** Per-query rows that stay in a database: the GROUP BY and the checks run there. */
export interface DatabaseSource {
  /** postgresql://…, bigquery://…, snowflake://…, clickhouse://…, trino://…, databricks://… */
  readonly url: string;
  /** The table of per-query results (or `sql`). */
  readonly table?: string | undefined;
  /** A SELECT giving the per-query results (or `table`). */
  readonly sql?: string | undefined;
  /** Where the credentials the URL leaves out come from (each client's usual variables). */
  readonly env: Environment;
  readonly doc?: string | null | undefined;
  readonly query?: string | null | undefined;
  /** The rerun (epoch, repeat) column: a facet, read by analyze, compare and plan (readDatabaseFacetCells.ts). */
  readonly trial?: string | null | undefined;
  /** The judge (grader) column: a facet, read by analyze, compare and plan. */
  readonly judge?: string | null | undefined;
  /** The prompt-wording column: a facet, read by analyze, compare and plan. */
  readonly variant?: string | null | undefined;
}

/** Where results come from. */
export type Source = FilesSource | DatabaseSource;

export function isDatabaseSource(source: Source): source is DatabaseSource {
  return "url" in source;
}

/** Where a read tells how it is going. */
export interface ReadProgress {
  /** What is being done: "reading results.csv…", "aggregating in PostgreSQL…". */
  readonly status: (message: string) => void;
  /**
   * How far each pass over a file is (DuckDB's estimate, 0–1). Leave it out when nothing shows
   * it: DuckDB then tracks no progress (three more statements and a timer).
   */
  readonly scan?: (file: string, pass: ReadingPass, fraction: number) => void;
}

/** What every read takes beside the source and the selection. */
export interface ReadOptions {
  /** A per-document column (a design's stratum or first-stage unit), one value per document. */
  readonly documentLabel?: string | null;
  /** Also return the per-query values (for the chunk bootstrap) up to this many per system. */
  readonly valuesUpTo?: number;
  readonly progress?: ReadProgress;
  /**
   * The command reading (its name in a refusal): a tool's output given where a per-document
   * table is read (--aggregated, merge) is refused with what to run instead.
   */
  readonly usedBy?: string;
  /** The option a refusal of a per-document table names (AggregatedOption); default `aggregated`. */
  readonly aggregatedOption?: AggregatedOption;
  /**
   * Per-document tables: add the rows of a document listed more than once (`ragci merge`);
   * by default such a document is refused.
   */
  readonly addRepeatedDocuments?: boolean;
}
