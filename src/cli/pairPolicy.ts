import { type ComparisonMode, comparisonMode, comparisonPairs } from "../core/comparisonPairs.js";

/** --baseline / --all-pairs as core's pair policy: the pairs once the reader knows the systems. */
export function pairPolicy(options: { readonly baseline?: string; readonly allPairs?: boolean }): {
  readonly pairs: (systems: readonly string[]) => (readonly [string, string])[];
  readonly mode: ComparisonMode;
} {
  const policy = { baseline: options.baseline ?? null, allPairs: options.allPairs ?? false };
  return {
    pairs: (systems) => comparisonPairs(systems, policy).pairs,
    mode: comparisonMode(policy),
  };
}
