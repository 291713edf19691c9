import { optionRef, RagciError } from "./errors.js";

/** How systems are compared: one pair, each against a baseline, or every pair. */
export type ComparisonMode = "two" | "baseline" | "all-pairs";

export interface PairPolicy {
  /** Compare every other system against this one (b − baseline). */
  readonly baseline?: string | null;
  /** Compare every pair (a before b in the given order). */
  readonly allPairs?: boolean;
}

/** @throws RagciError when both a baseline and all pairs are asked for */
export function checkPairPolicy(policy: PairPolicy): void {
  if ((policy.baseline ?? null) !== null && policy.allPairs) {
    throw new RagciError(
      "invalid-option",
      `choose one of ${optionRef("baseline")} and ${optionRef("allPairs")}`,
    );
  }
}

/** How a policy compares: a baseline, every pair, or (neither given) the one pair of two systems. */
export function comparisonMode(policy: PairPolicy): ComparisonMode {
  if ((policy.baseline ?? null) !== null) return "baseline";
  return policy.allPairs ? "all-pairs" : "two";
}

/**
 * The pairs (a, b) to compare, each read as b − a, among the systems found (in their order):
 * two systems are one pair; more need a policy, so a comparison never silently picks one.
 *
 * @example comparisonPairs(["bm25", "dense", "hybrid"], { baseline: "bm25" })
 *   // => { mode: "baseline", pairs: [["bm25", "dense"], ["bm25", "hybrid"]] }
 */
export function comparisonPairs(
  systems: readonly string[],
  policy: PairPolicy,
): { readonly mode: ComparisonMode; readonly pairs: (readonly [string, string])[] } {
  checkPairPolicy(policy);
  const mode = comparisonMode(policy);
  if (mode === "baseline") {
    const baseline = policy.baseline as string;
    return {
      mode,
      pairs: systems.filter((s) => s !== baseline).map((s) => [baseline, s] as const),
    };
  }
  if (mode === "all-pairs") {
    return {
      mode,
      pairs: systems.flatMap((a, i) => systems.slice(i + 1).map((b) => [a, b] as const)),
    };
  }
  if (systems.length > 2) {
    throw new RagciError(
      "invalid-option",
      `${systems.length} systems (${systems.join(", ")}): choose ${optionRef("baseline")} SYSTEM or ${optionRef("allPairs")}`,
    );
  }
  return { mode: "two", pairs: [[systems[0] as string, systems[1] as string] as const] };
}
