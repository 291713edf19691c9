import type { DocumentStats } from "../core/types.js";
import type { SystemFacetCells } from "./readFacetCells.js";
import type { ReadOptions } from "./source.js";

/** One system's per-document sums of one metric, or a pair's differences, and their source. */
export interface OneOrPairRead {
  readonly stats: DocumentStats;
  readonly metric: string;
  /** The system named (COLUMN=A); null for a pair or a source's only system. */
  readonly system: string | null;
  /** The pair differenced (b − a per query, paired on the query id), if two were named. */
  readonly pair: { readonly a: string; readonly b: string } | null;
  /** Each document's `documentLabel` value, aligned with stats.ids (when one was asked for). */
  readonly labels: readonly string[] | null;
  /** Systems in the source (2 for a pair). */
  readonly systemsFound: number;
  /** With facets (trial, judge, variant): the read system's (or the pair's systems') per-cell sums. */
  readonly cells?: readonly SystemFacetCells[];
  readonly description: {
    /** The file, or the database URL (password hidden) with its table or "(sql)". */
    readonly file: string;
    /** The file's SHA-256 (null when `hash` is false), or the statement's. */
    readonly sha256: string | null;
    readonly format: string;
    /** A database returns per-document rows. */
    readonly kind: "per-query" | "per-document";
  };
}

/** What a read of one system or a pair takes beside the source and the selection. */
export interface OneOrPairOptions extends ReadOptions {
  /** What uses the read, in messages: "plan uses one metric". */
  readonly usedBy: string;
  /** How messages name a paired use; default `a paired ${usedBy}`. */
  readonly pairedUse?: string;
  /** Whether two systems may be named (their differences); default true. */
  readonly allowPair?: boolean;
  /** Hash the file (the report's SHA-256); default true. */
  readonly hash?: boolean;
}
