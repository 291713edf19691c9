/**
 * A coverage seen in all (or none) of `reps` repetitions has Monte Carlo se √(p(1 − p)/reps) = 0,
 * which says nothing; what the count does say is the exact one-sided 95% (Clopper–Pearson)
 * bound: the true coverage p with p^reps = 0.05, i.e. p = 0.05^(1/reps) (≥ 98.5% for 200 of
 * 200), and 1 − that for 0 of reps. Null for any other coverage, where the se describes it.
 *
 * @example allOrNoneBound(1, 200) // => { side: "≥", bound: 0.98513 }
 */
export function allOrNoneBound(
  coverage: number,
  reps: number,
): { readonly side: "≥" | "≤"; readonly bound: number } | null {
  if (reps < 1 || (coverage !== 0 && coverage !== 1)) return null;
  const bound = 0.05 ** (1 / reps);
  return coverage === 1 ? { side: "≥", bound } : { side: "≤", bound: 1 - bound };
}

/**
 * What an all-or-none coverage's bound means, for a report that shows it as "100.0% (≥ 98.5)".
 */
export const ALL_OR_NONE_NOTE =
  "A bracket such as (≥ 98.5) beside 100.0% (or ≤ beside 0.0%): where every repetition covered, or none did, the Monte Carlo se is 0 and measures nothing, so the bracket gives the exact one-sided 95% (Clopper–Pearson) bound on the true coverage instead: with a true coverage of 0.05^(1/R), all R repetitions still cover 5% of the time";
