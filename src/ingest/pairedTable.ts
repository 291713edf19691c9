import type { PairSums } from "../core/compareMetric.js";
import type { DocumentStats } from "../core/types.js";
import type { DocumentRanges } from "./resultsTable.js";
import type { Summation } from "./summation.js";

/**
 * One pair's per-document sums of the per-query differences b − a (core's PairSums), and each
 * document's range of the differences where the reader kept it.
 */
export type PairDifference = PairSums & { readonly ranges?: DocumentRanges };

export interface PairedTable {
  readonly systems: readonly string[];
  readonly metrics: readonly string[];
  /** Queries kept (present for every system). */
  readonly queries: number;
  /** Rows each input file holds (before --intersect drops any). */
  readonly rowsPerInput: readonly number[];
  /** Queries dropped per system by --intersect. */
  readonly dropped: Readonly<Record<string, number>>;
  /** Each system's aggregates on the kept queries, per metric. */
  readonly perSystem: readonly {
    readonly system: string;
    readonly metric: string;
    readonly stats: DocumentStats;
    /** Each document's smallest and largest single result, where the reader kept them. */
    readonly ranges?: DocumentRanges;
  }[];
  readonly differences: readonly PairDifference[];
  /** The documentLabel of each document (by id), when one was asked for. */
  readonly labelOf?: ReadonlyMap<string, string>;
  /** How the sums were added (summation.ts); the double fallback adds in query-id order. */
  readonly summation: Summation;
}
