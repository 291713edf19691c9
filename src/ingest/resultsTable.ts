import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import type { DocumentStats } from "../core/types.js";
import type { InputFormat } from "./inputFormat.js";
import type { Summation } from "./summation.js";

/** One system × metric's per-document aggregates. */
export interface MetricAggregates {
  readonly system: string | null;
  readonly metric: string;
  readonly stats: DocumentStats;
  /** Per-query values grouped by document (ids order), sorted within each; non-binary only. */
  readonly values?: ResultValues;
  /** The documentLabel of each document, aligned with stats.ids. */
  readonly labels?: readonly string[];
  /**
   * Each document's smallest and largest single result, aligned with stats.ids (NaN where not
   * known); stats.min and stats.max are the table's. Absent where the reader did not keep them.
   */
  readonly ranges?: DocumentRanges;
}

/** Per-document smallest and largest single result (NaN: not known). */
export interface DocumentRanges {
  readonly min: Float64Array;
  readonly max: Float64Array;
}

/** What readResults and readAggregates return: one file's aggregates and how they were made. */
export interface ResultsTable {
  readonly file: string;
  readonly format: InputFormat;
  readonly documentColumn: string;
  readonly systemColumn: string | null;
  /** The query id column checked for repeats (named, or found by its usual name); null: none. */
  readonly queryColumn?: string | null;
  readonly metrics: readonly string[];
  /** Rows read (results, summed over systems). */
  readonly rows: number;
  /** One entry per system × metric, systems in code-point order, then metrics as requested. */
  readonly groups: readonly MetricAggregates[];
  /** How the sums were added (see summation.ts). */
  readonly summation: Summation;
  /** Things about the input a reader should know, each true of this file (shown as warnings). */
  readonly notices: readonly string[];
}
