import { compensatedSum } from "../numeric/compensatedSum.js";

/**
 * What a stratified design does with a stratum that has one sampled document of M_h > 1 (a
 * "lonely PSU"): its own spread is undefined, so its variance contribution needs a rule. The
 * names and the numbers are those of R's survey package, options(survey.lonely.psu =) in
 * survey:::onestrat (survey 4.1):
 *
 * - "fail" (default): an error naming the stratum.
 * - "remove": the stratum adds 0 to the variance (it still counts in the estimate).
 * - "certainty": the document is taken as sampled with certainty, so it adds 0 as well; the
 *   same numbers as "remove", a different claim about the design.
 * - "adjust": the stratum is centred at the mean of all sampled documents' weighted
 *   linearised totals, which is 0, instead of its own mean: (1 − 1/M_h)·(M_h z_d)².
 * - "average": the variance is Σ_ok V_h · H / H_ok, the contributions of the strata with a
 *   variance scaled up to all H strata (census strata count among them, with V_h = 0).
 *
 * A stratum with one document and M_h = 1 is a census (self-representing): it adds 0 under
 * every rule, "fail" included, as in survey. ν = K − H under every rule (survey's degf): a
 * single-document stratum adds K_h − 1 = 0 to it either way.
 */
export type LonelyPsu = "fail" | "remove" | "adjust" | "average" | "certainty";

export const LONELY_PSU_RULES: readonly LonelyPsu[] = [
  "fail",
  "remove",
  "adjust",
  "average",
  "certainty",
];

export function isLonelyPsu(value: unknown): value is LonelyPsu {
  return typeof value === "string" && (LONELY_PSU_RULES as readonly string[]).includes(value);
}

/** How a stratum with one sampled document was treated: a census (M_h = 1) or by the rule. */
export type SingleDocumentTreatment = "census" | Exclude<LonelyPsu, "fail">;

export interface LonelyPsuSummary {
  readonly rule: LonelyPsu;
  /** Every stratum with one sampled document, in order of first appearance, and its treatment. */
  readonly strata: Readonly<Record<string, SingleDocumentTreatment>>;
}

/**
 * The strata with one sampled document and how the rule treats them; with "fail" only census
 * strata (M_h = 1) can appear, the others being an error.
 *
 * @example lonelyPsuSummary(["a", "a", "b", "c"], { a: 9, b: 40, c: 1 }, "adjust")
 *   // => { rule: "adjust", strata: { b: "adjust", c: "census" } }
 */
export function lonelyPsuSummary(
  strata: readonly string[],
  populationSizes: Readonly<Record<string, number>>,
  rule: LonelyPsu,
): LonelyPsuSummary {
  const sampled = new Map<string, number>();
  for (const h of strata) sampled.set(h, (sampled.get(h) ?? 0) + 1);
  const treated: Record<string, SingleDocumentTreatment> = {};
  for (const [h, k] of sampled) {
    if (k !== 1) continue;
    if (populationSizes[h] === 1) treated[h] = "census";
    else if (rule !== "fail") treated[h] = rule;
  }
  return { rule, strata: treated };
}

/**
 * Variance contribution of a stratum with one sampled document of M_h > 1 under the rule,
 * from its weighted linearised total t = M_h·z_d: (1 − 1/M_h)·t² for "adjust" (centred at 0,
 * and no k/(k − 1) factor as k = 1), 0 for "remove" and "certainty", null for "average" (the
 * caller scales the other strata up, see averagedVariance).
 */
export function lonelyStratumVariance(
  weightedTotal: number,
  population: number,
  rule: Exclude<LonelyPsu, "fail">,
): number | null {
  switch (rule) {
    case "adjust":
      return (1 - 1 / population) * weightedTotal ** 2;
    case "average":
      return null;
    default:
      return 0;
  }
}

/**
 * Σ_h V_h over the strata that have a contribution, × H / H_ok when some do not ("average";
 * survey:::onestage's sum(na.rm = TRUE) · nstrat / nokstrat). The caller guarantees H_ok ≥ 1.
 */
export function averagedVariance(contributions: readonly (number | null)[]): number {
  const known = contributions.filter((v): v is number => v !== null);
  const sum = compensatedSum(known);
  return known.length === contributions.length ? sum : (sum * contributions.length) / known.length;
}
