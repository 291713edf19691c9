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
 * The continuous shares x_h = clamp(λ·w_h, min(2, M_h), M_h) that add up to K: the bounded
 * optimum (for Neyman's weights it minimises Σ M_h² S_h² / x_h under the bounds; Cochran 1977
 * §5.8). Σ_h clamp(λ w_h, ·) is piecewise linear and non-decreasing in λ, so λ lies in the
 * segment between the breakpoints lo_h/w_h, hi_h/w_h where the sum first reaches K; there each
 * stratum is at its lower bound, at its upper bound or free, and the free ones share what is
 * left in proportion to w_h. (Fixing every stratum out of bounds in one pass, as an earlier
 * version did, could fix one at 2 and another at M_h and exceed K.) All-zero weights share
 * equally; so do the strata of weight 0 when the others are all taken whole.
 */
function boundedShares(
  documents: number,
  strata: readonly StratumForAllocation[],
  weights: readonly number[],
): number[] {
  const w = weights.every((x) => x === 0) ? weights.map(() => 1) : weights;
  const lo = strata.map((h) => Math.min(2, h.population));
  const hi = strata.map((h) => h.population);
  const full = w.reduce((t, x, i) => t + (x > 0 ? (hi[i] as number) : (lo[i] as number)), 0);
  if (full < documents) {
    // Every weighted stratum is taken whole: the strata of weight 0 (S_h = 0, whose variance
    // is 0 at any size) share the rest equally.
    const zero = strata.flatMap((h, i) => ((w[i] as number) > 0 ? [] : [h]));
    const taken = w.reduce((t, x, i) => t + (x > 0 ? (hi[i] as number) : 0), 0);
    const rest = boundedShares(
      documents - taken,
      zero,
      zero.map(() => 1),
    );
    let next = 0;
    return w.map((x, i) => (x > 0 ? (hi[i] as number) : (rest[next++] as number)));
  }
  const sumAt = (lambda: number) =>
    w.reduce((t, x, i) => t + Math.min(Math.max(lambda * x, lo[i] as number), hi[i] as number), 0);
  const breakpoints = [
    ...new Set(w.flatMap((x, i) => (x > 0 ? [(lo[i] as number) / x, (hi[i] as number) / x] : []))),
  ].sort((a, b) => a - b);
  let previous = 0;
  for (const point of breakpoints) {
    if (sumAt(point) >= documents) break;
    previous = point;
  }
  const next = breakpoints.find((p) => p > previous) ?? previous + 1;
  // Each stratum's state inside the segment (previous, next), read at its midpoint.
  const middle = (previous + next) / 2;
  const fixed = w.map((x, i) =>
    middle * x <= (lo[i] as number)
      ? (lo[i] as number)
      : middle * x >= (hi[i] as number)
        ? (hi[i] as number)
        : null,
  );
  const left = documents - fixed.reduce<number>((a, b) => a + (b ?? 0), 0);
  const sum = w.reduce((t, x, i) => t + (fixed[i] === null ? x : 0), 0);
  return fixed.map((f, i) => f ?? ((w[i] as number) / sum) * left);
}

/**
 * The fewest documents the strata can be given: two each (a stratum's variance needs two), or
 * all of a stratum of one, which is then taken whole (a certainty stratum, with no sampling
 * variance).
 *
 * @example fewestAllocated([{ population: 1, sd: 0 }, { population: 40, sd: 0.2 }]) // => 3
 */
export function fewestAllocated(
  strata: readonly Pick<StratumForAllocation, "population">[],
): number {
  return strata.reduce((t, h) => t + Math.min(2, h.population), 0);
}

/**
 * Allocates K documents across strata (Cochran 1977 §5.5): equal K/H, proportional to M_h, or
 * Neyman ∝ M_h·S_h. Each stratum gets at least 2 (a variance needs two), or its one document,
 * and at most M_h; rounding by largest remainders, so the counts add up to K exactly.
 *
 * @throws RagciError "invalid-option" when K < Σ min(2, M_h) or K > Σ M_h
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
  const fewest = fewestAllocated(strata);
  if (documents < fewest || documents > total) {
    throw new RagciError(
      "invalid-option",
      `cannot allocate ${documents} documents to ${strata.length} strata: need between ${fewest} and ${total}`,
    );
  }
  const weight = strata.map((h) =>
    Math.max(
      rule === "equal" ? 1 : rule === "proportional" ? h.population : h.population * h.sd,
      0,
    ),
  );
  const target = boundedShares(documents, strata, weight);
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
