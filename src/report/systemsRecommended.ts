import type { Analysis } from "../core/analyze.js";
import type { Comparison } from "../core/compare.js";
import type { Estimand, Interval } from "../core/types.js";

/** One system's estimate and recommended interval for one estimand (undefined: not analysed). */
export interface SystemRecommended {
  readonly estimand: Estimand;
  readonly estimate: number | undefined;
  readonly interval: Interval | undefined;
}

/**
 * Each system of a pair (a, then b) with its own recommended interval per estimand: the
 * "each system" table of a pair section, in the terminal and in Markdown.
 */
export function systemsRecommended(
  c: Comparison,
  estimands: readonly Estimand[],
): { readonly name: string; readonly estimands: readonly SystemRecommended[] }[] {
  const systems: [string, Analysis][] = [
    [c.a, c.aAnalysis],
    [c.b, c.bAnalysis],
  ];
  return systems.map(([name, analysis]) => ({
    name,
    estimands: estimands.map((estimand) => {
      const x = analysis[estimand];
      return { estimand, estimate: x?.estimate, interval: x?.intervals[x.recommended] };
    }),
  }));
}
