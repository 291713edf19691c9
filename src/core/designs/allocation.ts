import { RagciError } from "../errors.js";

export type AllocationRule = "equal" | "proportional" | "neyman";

/** Every allocation rule, in the order reports list them. */
export const ALLOCATION_RULES: readonly AllocationRule[] = ["equal", "proportional", "neyman"];

/** The rule used when none is named: Neyman's, the smallest variance for the documents drawn. */
export const DEFAULT_ALLOCATION: AllocationRule = "neyman";

export interface StratumForAllocation {
  /** M_h, documents in the stratum. */
  readonly population: number;
  /** S_h, the stratum's per-document standard deviation (Neyman only). */
  readonly sd: number;
}

/**
 * Allocates K documents across strata (Cochran 1977 §5.5): equal K/H, proportional to M_h, or
 * Neyman ∝ M_h·S_h. Each stratum gets at least 2 (a variance needs two) and at most M_h;
 * rounding by largest remainders, so the counts add up to K exactly.
 *
 * @throws RagciError "invalid-option" when K < 2H or K > Σ M_h
 *
 * @example allocate(10, [{ population: 100, sd: 0.1 }, { population: 50, sd: 0.4 }], "neyman")
 *   // => [3, 7]
 */
export function allocate(
  documents: number,
  strata: readonly StratumForAllocation[],
  rule: AllocationRule,
): number[] {
  const total = strata.reduce((t, h) => t + h.population, 0);
  if (documents < 2 * strata.length || documents > total) {
    throw new RagciError(
      "invalid-option",
      `cannot allocate ${documents} documents to ${strata.length} strata: need between ${2 * strata.length} and ${total}`,
    );
  }
  const weight = strata.map((h) =>
    Math.max(
      rule === "equal" ? 1 : rule === "proportional" ? h.population : h.population * h.sd,
      0,
    ),
  );
  // Ideal shares of K; strata pushed below 2 or above M_h are fixed there and the rest is
  // shared again among the others, until every share is within its bounds.
  const fixed: (number | null)[] = strata.map(() => null);
  let target: number[] = [];
  for (;;) {
    const free = strata.map((_, i) => fixed[i] === null);
    const left = documents - fixed.reduce<number>((a, b) => a + (b ?? 0), 0);
    const w = weight.map((x, i) => (free[i] ? x : 0));
    const sum = w.reduce((a, b) => a + b, 0);
    const freeCount = free.filter(Boolean).length;
    target = strata.map(
      (_, i) => fixed[i] ?? (sum > 0 ? ((w[i] as number) / sum) * left : left / freeCount),
    );
    let changed = false;
    strata.forEach((h, i) => {
      if (fixed[i] !== null) return;
      const x = target[i] as number;
      const bound = x < 2 ? Math.min(2, h.population) : x > h.population ? h.population : null;
      if (bound !== null) {
        fixed[i] = bound;
        changed = true;
      }
    });
    if (!changed) break;
  }
  // Largest remainders, so the counts add up to K exactly.
  const counts = target.map((x) => Math.floor(x));
  let left = documents - counts.reduce((a, b) => a + b, 0);
  const order = target
    .map((x, i) => ({ i, remainder: x - Math.floor(x) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    if ((counts[i] as number) < (strata[i] as StratumForAllocation).population) {
      counts[i] = (counts[i] as number) + 1;
      left--;
    }
  }
  return counts;
}
