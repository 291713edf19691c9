import type { Comparison, DifferenceTest } from "./compare.js";
import { holmAdjust, indistinguishableGroups } from "./compare.js";
import type { ComparisonMode } from "./comparisonPairs.js";
import { validateLevel } from "./intervals/level.js";
import type { Estimand } from "./types.js";

/** Several comparisons of one metric, adjusted together. */
export interface MultipleComparisons {
  /** Holm-adjusted p per comparison and estimand; an estimand without a test has no entry. */
  readonly holm: readonly Readonly<Partial<Record<Estimand, number>>>[];
  /** All pairs: systems that cannot be told apart, per estimand tested (best first). */
  readonly groups: Readonly<Partial<Record<Estimand, string[][]>>>;
}

/**
 * The p-value a comparison brings to the family: its test's; 1 for two systems equal on every
 * document (difference and se exactly 0: t is 0/0, and there is nothing to detect); none
 * (left out of the adjustment, and undecided in the groups) for a missing test or a constant
 * nonzero difference with se 0, whose t is infinite but whose ν-based p is undefined.
 */
export function adjustablePValue(test: DifferenceTest | undefined): number | null {
  if (!test) return null;
  if (test.p !== null) return test.p;
  return test.se === 0 && test.estimate === 0 ? 1 : null;
}

/**
 * Holm's adjustment per estimand over the comparisons that have a test for it, and, for every
 * pair, the groups of systems no pair of which differs at 1 − level after adjustment (systems
 * ranked by their estimate; an estimand is grouped only when every system has an estimate).
 * One comparison needs no adjustment: empty.
 *
 * @example // three systems, every pair (comparisons cut to the fields read: compareSystems gives them)
 *   adjustComparisons([
 *     { a: "x", b: "y", tests: { micro: { p: 0.01 } }, aAnalysis: { micro: { estimate: 0.7 } }, bAnalysis: { micro: { estimate: 0.5 } } },
 *     { a: "x", b: "z", tests: { micro: { p: 0.04 } }, aAnalysis: { micro: { estimate: 0.7 } }, bAnalysis: { micro: { estimate: 0.6 } } },
 *     { a: "y", b: "z", tests: { micro: { p: 0.03 } }, aAnalysis: { micro: { estimate: 0.5 } }, bAnalysis: { micro: { estimate: 0.6 } } },
 *   ], "all-pairs", 0.95)
 *   // Holm: 3 × 0.01, max(0.03, 2 × 0.03), max(0.06, 0.04); only x and y differ at 0.05
 *   // => { holm: [{ micro: 0.0300 }, { micro: 0.0600 }, { micro: 0.0600 }], groups: { micro: [["x", "z"], ["z", "y"]] } }
 */
export function adjustComparisons(
  comparisons: readonly Comparison[],
  mode: ComparisonMode,
  level: number,
): MultipleComparisons {
  validateLevel(level);
  if (mode === "two") return { holm: [], groups: {} };
  const holm: Partial<Record<Estimand, number>>[] = comparisons.map(() => ({}));
  const groups: Partial<Record<Estimand, string[][]>> = {};
  for (const e of ["micro", "macro"] as const) {
    const tested = comparisons.flatMap((c, i) => {
      const p = adjustablePValue(c.tests[e]);
      return p === null ? [] : [{ i, p }];
    });
    if (tested.length === 0) continue;
    const adjusted = new Map<number, number>();
    holmAdjust(tested.map((t) => t.p)).forEach((p, j) => {
      const i = (tested[j] as { i: number }).i;
      adjusted.set(i, p);
      (holm[i] as Partial<Record<Estimand, number>>)[e] = p;
    });
    if (mode !== "all-pairs") continue;
    const estimates = new Map<string, number | undefined>();
    for (const c of comparisons) {
      estimates.set(c.a, c.aAnalysis[e]?.estimate);
      estimates.set(c.b, c.bAnalysis[e]?.estimate);
    }
    if ([...estimates.values()].some((x) => x === undefined)) continue;
    const ranked = [...(estimates as Map<string, number>)]
      .sort((x, y) => y[1] - x[1])
      .map(([s]) => s);
    const differ = (a: string, b: string) => {
      const i = comparisons.findIndex((c) => (c.a === a && c.b === b) || (c.a === b && c.b === a));
      const p = adjusted.get(i);
      return p !== undefined && p < 1 - level;
    };
    groups[e] = indistinguishableGroups(ranked, differ);
  }
  return { holm, groups };
}
