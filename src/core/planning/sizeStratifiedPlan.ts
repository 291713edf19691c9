import type { AllocationRule } from "../designs/allocation.js";
import { ALLOCATION_RULES } from "../designs/allocation.js";
import { summarizeCensusStrata } from "../designs/predictedStandardErrors.js";
import { sizeStrataToSample } from "../designs/sizeStrata.js";
import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats, Estimand } from "../types.js";
import { planningHalfWidth } from "./planningHalfWidth.js";
import type { SamplePlan } from "./samplePlan.js";
import { requiredStratifiedDocuments, stratifiedHalfWidth } from "./stratifiedPlan.js";

/** One allocation rule's stratified plan for one estimand. */
export interface StratifiedAllocationPlan {
  readonly rule: AllocationRule;
  /** Smallest K whose stratified half-width meets w (allocation redone at each K). */
  readonly documents: number;
  readonly sampled: Record<string, number>;
  readonly halfWidth: number;
  readonly df: number;
  /** The same rule at the SRS plan's K: what stratifying buys for the same labelling cost. */
  readonly atSrsDocuments: {
    readonly sampled: Record<string, number>;
    readonly halfWidth: number;
    readonly df: number;
  } | null;
}

export interface StratifiedEstimandPlan {
  readonly srsDocuments: number;
  readonly srsHalfWidth: number;
  readonly allocations: readonly StratifiedAllocationPlan[];
}

/** The size-stratified plan of `ragci plan --census --cutoff C` (JSON `stratified`). */
export interface SizeStratifiedPlan {
  readonly cutoff: number;
  readonly strata: readonly {
    readonly name: string;
    readonly population: number;
    readonly shareOfResults: number;
  }[];
  readonly macro: StratifiedEstimandPlan;
  readonly micro: StratifiedEstimandPlan;
}

/**
 * The size-stratified plan from a census split at `cutoff`: for each estimand and allocation
 * rule, the smallest K meeting w and the half-width at the SRS plan's K (`srsDocuments`), with
 * ν = K − H; Neyman on each estimand's own S_h.
 *
 * @example // macro: Neyman's 2 + 3 documents reach 0.1 (qt(0.975, 3)·0.02576 = 0.082; 2 + 2 give
 *   // 0.27), equal needs all six (3 + 2 give 0.19), as does SRS
 *   planSizeStratified({ census: documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [2, 2, 3, 10, 12, 20], s: [1, 1, 3, 3, 4, 2] }), cutoff: 3, halfWidth: 0.1, level: 0.95, srs: { macro: { sd: 0.305, documents: 6 }, micro: { sd: 0.239, documents: 6 } } }).macro.allocations.map((a) => [a.rule, a.documents, a.sampled, a.halfWidth])
 *   // => [["equal", 6, { large: 3, small: 3 }, 0], ["proportional", 6, { large: 3, small: 3 }, 0], ["neyman", 5, { large: 2, small: 3 }, 0.08198]]
 */
export function planSizeStratified(input: {
  readonly census: DocumentStats;
  readonly cutoff: number;
  readonly halfWidth: number;
  readonly level: number;
  /** Per estimand: the SRS plan's S and K, to compare at the same labelling cost. */
  readonly srs: Readonly<Record<Estimand, { readonly sd: number; readonly documents: number }>>;
}): SizeStratifiedPlan {
  const { census, cutoff, halfWidth, level } = input;
  const strata = sizeStrataToSample(census, cutoff);
  const summary = summarizeCensusStrata(census, strata);
  const N = compensatedSum(census.n);
  const named = (sampled: readonly number[]) =>
    Object.fromEntries(strata.map((h, i) => [h.name, sampled[i] as number]));
  const H = strata.length;
  const plan = (estimand: Estimand): StratifiedEstimandPlan => {
    const srsDocuments = input.srs[estimand].documents;
    const allocations = ALLOCATION_RULES.map((rule) => {
      const common = { summary, rule, estimand, level };
      const documents = requiredStratifiedDocuments({ ...common, halfWidth });
      const at = stratifiedHalfWidth({ ...common, documents });
      const atSrs =
        srsDocuments >= 2 * H ? stratifiedHalfWidth({ ...common, documents: srsDocuments }) : null;
      return {
        rule,
        documents,
        sampled: named(at.sampled),
        halfWidth: at.halfWidth,
        df: at.df,
        atSrsDocuments: atSrs
          ? { sampled: named(atSrs.sampled), halfWidth: atSrs.halfWidth, df: atSrs.df }
          : null,
      };
    });
    return {
      srsDocuments,
      srsHalfWidth: planningHalfWidth({
        sd: input.srs[estimand].sd,
        population: summary.population,
        level,
        documents: srsDocuments,
      }),
      allocations,
    };
  };
  return {
    cutoff,
    strata: strata.map((h) => ({
      name: h.name,
      population: h.documents.length,
      shareOfResults: h.results / N,
    })),
    macro: plan("macro"),
    micro: plan("micro"),
  };
}

/**
 * The size-stratified plan of a census beside its SRS plan (`planSample` with a half-width):
 * the same w and level, each estimand compared at the SRS plan's own S and K.
 *
 * @throws Error when the SRS plan has no half-width or no K for an estimand (a plan of S alone)
 */
export function planSizeStratifiedBeside(
  srs: SamplePlan,
  census: DocumentStats,
  cutoff: number,
): SizeStratifiedPlan {
  const at = (estimand: Estimand) => {
    const plan = srs[estimand];
    if (plan?.documents === undefined)
      throw new Error(`internal: the SRS plan has no ${estimand} K to stratify beside`);
    return { sd: plan.sd, documents: plan.documents };
  };
  if (srs.halfWidth === null) throw new Error("internal: the SRS plan has no half-width");
  return planSizeStratified({
    census,
    cutoff,
    halfWidth: srs.halfWidth,
    level: srs.level,
    srs: { macro: at("macro"), micro: at("micro") },
  });
}
