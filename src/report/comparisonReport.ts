import type { MetricComparisons } from "../core/compareMetric.js";
import type { ComparisonMode } from "../core/comparisonPairs.js";
import type { FacetInterval } from "../core/facets/facetInterval.js";
import type { GateDecision } from "../core/gate.js";
import type { InputDescription } from "./analysisReport.js";
import type { SummationKind } from "./summationNote.js";

export type { MetricComparisons };

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
  /** The regression gate's decision (--fail-if-worse or --require-noninferior), if asked. */
  readonly gate?: GateDecision | null;
  /** With facets (trial, judge, variant): each compared system × metric's variance components. */
  readonly facets?: readonly {
    readonly system: string;
    readonly metric: string;
    readonly components: FacetInterval;
  }[];
}
