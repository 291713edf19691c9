import type { AnalyzeOptions } from "./analyze.js";
import { type Comparison, compareSystems, withCensusStudy } from "./compare.js";
import type { ComparisonMode } from "./comparisonPairs.js";
import type { DocumentDesign } from "./designs/applyDesign.js";
import { adjustComparisons, type MultipleComparisons } from "./multipleComparisons.js";
import type { StudyResult } from "./simulation/studySummary.js";
import type { DocumentStats, ResultValues } from "./types.js";

/** One system's per-document sums of one metric. */
export interface SystemSums {
  readonly system: string;
  readonly metric: string;
  readonly stats: DocumentStats;
}

/** One pair's per-document sums of the per-query differences b − a, for one metric. */
export interface PairSums {
  readonly a: string;
  readonly b: string;
  readonly metric: string;
  readonly stats: DocumentStats;
  /** Queries with b ≠ a; null when per-document sums cannot tell. */
  readonly queriesDiffering: number | null;
  /** The per-query differences grouped by document (for the chunk bootstrap of a score). */
  readonly values?: ResultValues;
}

/** One metric's comparisons, with Holm p-values and tie groups when there are several. */
export interface MetricComparisons extends MultipleComparisons {
  readonly metric: string;
  readonly comparisons: readonly Comparison[];
}

export interface CompareMetricOptions {
  /** How the pairs were chosen: two systems, against a baseline, or all pairs. */
  readonly mode: ComparisonMode;
  readonly level: number;
  /** The analysis options of every system and difference (but the design and the values). */
  readonly analysis?: Omit<AnalyzeOptions, "level" | "design" | "values">;
  /** The design of a pair's documents, by their ids (the same for a, b and b − a). */
  readonly design?: (ids: readonly string[]) => DocumentDesign | null;
  /**
   * A coverage study of a pair's differences on a census, and the census's name; with the
   * census's M (its documents), which the pair's intervals then apply as their fpc.
   */
  readonly censusStudy?: (pair: PairSums) =>
    | {
        readonly study: StudyResult;
        readonly census: string;
        readonly population?: number;
      }
    | undefined;
}

/**
 * Every compared pair of one metric: each system's analysis and the analysis of the per-document
 * differences (compareSystems), the recommendation taken from a census study when one is given,
 * and the family adjusted together (Holm per estimand; tie groups for all pairs).
 *
 * @example compareMetric("hit", { perSystem: [{ system: "a", metric: "hit", stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [1, 1, 0] }) }, { system: "b", metric: "hit", stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [2, 1, 1] }) }], differences: [{ a: "a", b: "b", metric: "hit", stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [1, 0, 1], ss: [1, 0, 1], min: 0, max: 1 }), queriesDiffering: 2 }] }, { mode: "two", level: 0.95, analysis: { replicates: 0 } }).comparisons[0]?.difference.micro?.estimate
 *   // => 0.33333
 */
export function compareMetric(
  metric: string,
  sums: { readonly perSystem: readonly SystemSums[]; readonly differences: readonly PairSums[] },
  options: CompareMetricOptions,
): MetricComparisons {
  const stats = (system: string) => {
    const found = sums.perSystem.find((p) => p.system === system && p.metric === metric);
    if (!found) throw new Error(`internal: no aggregates for ${system}/${metric}`);
    return found.stats;
  };
  const comparisons = sums.differences
    .filter((d) => d.metric === metric)
    .map((d) => {
      const census = options.censusStudy?.(d);
      const population = census?.population ?? options.analysis?.population ?? null;
      const comparison = compareSystems(
        {
          a: { name: d.a, stats: stats(d.a) },
          b: { name: d.b, stats: stats(d.b) },
          difference: d.stats,
          queriesDiffering: d.queriesDiffering,
        },
        {
          ...options.analysis,
          ...(population === null ? {} : { population }),
          level: options.level,
          design: options.design?.(d.stats.ids) ?? null,
          values: d.values ?? null,
        },
      );
      return census ? withCensusStudy(comparison, census.study, census.census) : comparison;
    });
  return {
    metric,
    comparisons,
    ...adjustComparisons(comparisons, options.mode, options.level),
  };
}
