import type { Comparison } from "../core/compare.js";
import type { InputDescription } from "./analysisReport.js";

/** One metric's comparisons (two systems: one comparison; many: against a baseline or all pairs). */
export interface MetricComparisons {
  readonly metric: string;
  readonly comparisons: readonly Comparison[];
  /** Holm-adjusted p-values per comparison and estimand (many systems only). */
  readonly holm: readonly Readonly<Partial<Record<"micro" | "macro", number>>>[];
  /** Systems that cannot be told apart, per estimand (many systems only). */
  readonly groups: Readonly<Partial<Record<"micro" | "macro", string[][]>>>;
}

export interface ComparisonReport {
  readonly version: string;
  readonly inputs: readonly InputDescription[];
  readonly systems: readonly string[];
  readonly mode: "two" | "baseline" | "all-pairs";
  readonly queries: number;
  readonly dropped: Readonly<Record<string, number>>;
  readonly metrics: readonly MetricComparisons[];
  /** Where --write-aggregates saved the per-document table, if it did. */
  readonly aggregatesFile: string | null;
}
