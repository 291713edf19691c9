import type { AggregatedOption } from "./identity.js";

export interface PairedInput {
  /** Path read (by DuckDB, or by readSmallPairedResults for a small CSV). */
  readonly path: string;
  /** Name in messages. */
  readonly displayName: string;
}

export interface ReadPairedOptions {
  /** One file with a system column, or one file per system. */
  readonly inputs: readonly PairedInput[];
  readonly format?: string | null;
  readonly doc?: string | null;
  readonly query?: string | null;
  /** System column (one file); with one file per system the systems are the file names. */
  readonly system?: string | null;
  readonly metrics: readonly string[];
  /**
   * Keep the queries every system has, instead of failing on the others; null when the reading
   * command has no --intersect (a paired plan or study), so that the refusal does not offer it.
   */
  readonly intersect?: boolean | null;
  /** Keep only these systems' rows (--system COLUMN=A,B); null keeps every system. */
  readonly onlySystems?: readonly string[] | null;
  /** Which (a, b) pairs to difference, given the systems found (sorted by name). */
  readonly pairs: (systems: readonly string[]) => readonly (readonly [string, string])[];
  readonly threads?: number;
  /** Also return the per-query differences when there are at most this many queries. */
  readonly valuesUpTo?: number;
  /** A per-document column (a design's stratum or psu) to return, one value per document. */
  readonly documentLabel?: string | null;
  /** The option a refusal of a per-document table names (AggregatedOption); default `aggregated`. */
  readonly aggregatedOption?: AggregatedOption | undefined;
}
