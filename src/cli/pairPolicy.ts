import { type ComparisonMode, comparisonPairs } from "../core/comparisonPairs.js";

/**
 * --baseline / --all-pairs as core's pair policy, applied once the reader knows the systems;
 * `mode()` is then how the pairs were chosen ("two" until they are).
 */
export function pairPolicy(options: { readonly baseline?: string; readonly allPairs?: boolean }): {
  readonly pairs: (systems: readonly string[]) => (readonly [string, string])[];
  readonly mode: () => ComparisonMode;
} {
  let mode: ComparisonMode = "two";
  return {
    pairs: (systems) => {
      const chosen = comparisonPairs(systems, {
        baseline: options.baseline ?? null,
        allPairs: options.allPairs ?? false,
      });
      mode = chosen.mode;
      return chosen.pairs;
    },
    mode: () => mode,
  };
}
