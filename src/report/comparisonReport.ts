import type { Comparison } from "../core/compare.js";
import type { ComparisonMode } from "../core/comparisonPairs.js";
import type { MultipleComparisons } from "../core/multipleComparisons.js";
import type { InputDescription } from "./analysisReport.js";
import type { SummationKind } from "./summationNote.js";

/** One metric's comparisons (two systems: one comparison; many: against a baseline or all pairs). */
/** One metric's comparisons, with Holm p-values and tie groups when there are several. */
export interface MetricComparisons extends MultipleComparisons {
  readonly metric: string;
  readonly comparisons: readonly Comparison[];
}

export interface ComparisonReport {
  readonly version: string;
  readonly inputs: readonly InputDescription[];
  readonly systems: readonly string[];
  readonly mode: ComparisonMode;
  readonly queries: number;
  readonly dropped: Readonly<Record<string, number>>;
  readonly metrics: readonly MetricComparisons[];
  /**
   * How the per-document sums were added: exact, or (values too large for exact decimal sums)
   * in double precision in query-id order.
   */
  readonly summation: SummationKind;
  /** How the inputs were read where a reader must know it (an evaluation tool's output). */
  readonly notices: readonly string[];
  /** Where --write-aggregates saved the per-document table, if it did. */
  readonly aggregatesFile: string | null;
}
