import { FEWEST_DIFFERING_DOCUMENTS } from "../diagnostics/differingDocuments.js";
import { optionRef, RagciError } from "../errors.js";
import { levelPercent } from "../intervals/levelPercent.js";
import { PAIRED_STUDIES, PAIRED_STUDY_COVERAGE, pairedStudyK } from "../pairedStudyCoverage.js";
import { percentText } from "../percentText.js";
import { RAGCI_STUDY_COVERAGE } from "../recommendMethod.js";
import type { Estimand } from "../types.js";
import { checkCurve } from "./checkCurve.js";
import { documentsForDiffering } from "./documentsForDiffering.js";
import { pilotSdRange } from "./pilotSdRange.js";
import {
  halfWidthCurve,
  requiredDocuments,
  requiredDocumentsWithinLimit,
} from "./requiredDocuments.js";
import {
  requiredDocumentsToDetect,
  requiredDocumentsToDetectWithinLimit,
} from "./requiredDocumentsToDetect.js";

/** Where a plan's S comes from: given, or a pilot sample or census (and what was read). */
export type PlanSource =
  | { readonly kind: "given" }
  | {
      readonly kind: "pilot" | "census";
      readonly file: string;
      readonly documents: number;
      readonly sha256: string;
      /** The pair differenced (b − a per query) when S is of a per-document difference. */
      readonly difference?: { readonly a: string; readonly b: string; readonly metric: string };
    };

/** One estimand's plan (an entry of `estimands` in `ragci plan --json`). */
export interface EstimandPlan {
  readonly sd: number;
  /** Smallest K meeting the half-width, with the fpc when M is known (at most M). */
  readonly documents?: number;
  /** The same without the fpc; null: more than 10¹² documents. */
  readonly documentsWithoutFpc?: number | null;
  readonly detect?: {
    readonly difference: number;
    readonly power: number;
    readonly documents: number;
    readonly documentsWithoutFpc: number | null;
  };
  readonly curve: readonly {
    readonly documents: number;
    readonly halfWidth: number;
    readonly halfWidthWithoutFpc: number;
  }[];
}

export interface SamplePlanInput {
  /** S per estimand; an estimand without S is not planned. */
  readonly sd: Partial<Record<Estimand, number>>;
  readonly halfWidth?: number;
  /** A paired plan: the difference to detect, with `power`. */
  readonly difference?: number;
  readonly power?: number;
  /** M, for the finite-population correction; null: none. */
  readonly population: number | null;
  readonly level: number;
  /** K at which to give the half-width (default 5 … 1000, those ≤ M). */
  readonly curve?: readonly number[];
  readonly source: PlanSource;
  /** S is of one system picked from a file of several although a difference is planned. */
  readonly oneSystemForDifference?: string | null;
  /** A pair's pilot or census: its documents whose summed difference is not 0. */
  readonly differingDocuments?: number;
}

export interface SamplePlan {
  readonly level: number;
  readonly halfWidth: number | null;
  /** A paired plan's difference to detect (null: none) and power. */
  readonly difference: number | null;
  readonly power: number;
  readonly population: number | null;
  readonly source: PlanSource;
  /** The estimands planned, macro first. */
  readonly estimands: readonly Estimand[];
  readonly macro?: EstimandPlan;
  readonly micro?: EstimandPlan;
  readonly curve: readonly number[];
  /** What the reader must know, most important first. */
  readonly warnings: readonly string[];
}

const DEFAULT_CURVE = [5, 10, 20, 50, 100, 200, 500, 1000];

/**
 * The SRS plan for each estimand with an S (SPEC §7): the smallest K for the half-width, with
 * and without the fpc, the K to detect a paired difference, the half-width curve, and the
 * caveats that apply to these numbers.
 *
 * @example // R: the smallest K with qt(0.975, K − 1)·0.224/√K·√(1 − K/1300) ≤ 0.05 is 76 (80 without √(1 − K/M))
 *   planSample({ sd: { macro: 0.224 }, halfWidth: 0.05, population: 1300, level: 0.95, curve: [20, 80], source: { kind: "given" } }).macro
 *   // => { documents: 76, documentsWithoutFpc: 80, curve: [{ documents: 20, halfWidth: 0.10403 }, { documents: 80, halfWidth: 0.04829 }] }
 */
export function planSample(input: SamplePlanInput): SamplePlan {
  const { population, level } = input;
  if (input.power !== undefined && input.difference === undefined) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("power")} ${input.power} is the power to detect a difference: give the difference too (${optionRef("difference")})`,
    );
  }
  if (input.curve) checkCurve(input.curve, population);
  requirePopulationHoldsSource(population, input.source);
  const estimands = (["macro", "micro"] as const).filter((e) => input.sd[e] !== undefined);
  const curve = input.curve ?? DEFAULT_CURVE.filter((k) => population === null || k <= population);
  const plans: Partial<Record<Estimand, EstimandPlan>> = {};
  const share = differingShareOf(input);
  for (const e of estimands) {
    // The macro difference's interval is t-differing: ν follows the documents that differ.
    const sd = input.sd[e] as number;
    const ties = e === "macro" && share !== undefined ? { differingShare: share } : {};
    const w = input.halfWidth;
    const d = input.difference;
    const power = input.power ?? 0.8;
    plans[e] = {
      sd,
      ...(w === undefined
        ? {}
        : {
            documents: requiredDocuments({ sd, halfWidth: w, population, level, ...ties }),
            documentsWithoutFpc: requiredDocumentsWithinLimit({
              sd,
              halfWidth: w,
              population: null,
              level,
              ...ties,
            }),
          }),
      ...(d === undefined
        ? {}
        : {
            detect: {
              difference: d,
              power,
              documents: requiredDocumentsToDetect({
                sd,
                difference: d,
                power,
                population,
                level,
                ...ties,
              }),
              documentsWithoutFpc: requiredDocumentsToDetectWithinLimit({
                sd,
                difference: d,
                power,
                population: null,
                level,
                ...ties,
              }),
            },
          }),
      curve: halfWidthCurve({ sd, population, level, documents: curve, ...ties }),
    };
  }
  return {
    level,
    halfWidth: input.halfWidth ?? null,
    difference: input.difference ?? null,
    power: input.power ?? 0.8,
    population,
    source: input.source,
    estimands,
    ...plans,
    curve,
    warnings: planWarnings(input, estimands, plans, share),
  };
}

/**
 * A paired pilot's or census's share of documents that differ (D/K), for the macro plan's ν;
 * none for one system, a given S, or when D is unknown.
 */
function differingShareOf(input: SamplePlanInput): number | undefined {
  const d = input.differingDocuments;
  const source = input.source;
  if (d === undefined || source.kind === "given" || !source.difference) return undefined;
  return d / source.documents;
}

/** A share as a short decimal (0.398). */
function fixedShare(share: number): string {
  return String(Math.round(share * 1000) / 1000);
}

function planWarnings(
  input: SamplePlanInput,
  estimands: readonly Estimand[],
  plans: Partial<Record<Estimand, EstimandPlan>>,
  differingShare: number | undefined,
): string[] {
  const { source, population } = input;
  const warnings: string[] = [];
  if (source.kind === "pilot") {
    const range = pilotSdRange(source.documents, input.level);
    const times = (x: number) => `${x.toFixed(2)}×`;
    warnings.push(
      `S is estimated from a pilot of ${source.documents} documents and is itself uncertain: were the per-document values normal, its ${levelPercent(input.level)} interval would run from ${times(range.lower)} to ${times(range.upper)} the estimate, and the planned K, which grows with S², from ${times(range.lower ** 2)} to ${times(range.upper ** 2)} (wider with skewed values or influential documents); plan with a larger S for safety.`,
    );
  }
  const flat = estimands.filter((e) => input.sd[e] === 0);
  if (flat.length > 0) {
    warnings.push(
      `S = 0 for ${flat.join(" and ")}: ${source.kind === "given" ? "with no variation between documents" : `the ${source.documents} documents of ${source.kind === "census" ? "the census" : "the pilot"} do not vary`}, every K gives a half-width of 0, so the ${flat.length > 1 ? "plans" : "plan"} above cannot size anything; plan with a realistic S (from a pilot whose documents differ, or a published one).`,
    );
  }
  const census = estimands.filter((e) => population !== null && plans[e]?.documents === population);
  if (census.length > 0) {
    warnings.push(
      `For ${census.join(" and ")} the answer is every document (K = M = ${population}): only the census itself reaches a half-width of ${input.halfWidth}; a sample of fewer documents is wider.`,
    );
  }
  if (input.oneSystemForDifference) {
    const system = input.oneSystemForDifference;
    warnings.push(
      `S is of one system's results (${system}), not of a per-document difference between two systems; for a paired plan give both, e.g. ${optionRef("system")} ${system.split("=")[0]}=A,B.`,
    );
  }
  const smallest = smallestPlannedK(estimands, plans);
  const differing =
    source.kind === "given"
      ? givenDifferingWarning(input, smallest)
      : differingWarning(input, estimands, plans);
  if (differing) warnings.push(differing);
  const small = smallPlanWarning(input, smallest);
  if (small) warnings.push(small);
  // A pair's ties widen its macro plan (differingShareOf); say so with the pilot's counts.
  const share = estimands.includes("macro") ? differingShare : undefined;
  const tied = share !== undefined && share < 1;
  if (tied && input.source.kind !== "given")
    warnings.push(
      `The macro plan uses ν = max(1, ${fixedShare(share)}·K − 1), not K − 1: ${input.differingDocuments} of the ${input.source.documents} documents of the ${input.source.kind === "census" ? "census" : "pilot"} differ, and compare's macro interval of a difference is t with ν = D − 1 over the documents that differ (t-differing), so ties make it wider than K alone says.`,
    );
  warnings.push(
    `The rule uses ν = K − 1${tied ? " (macro: as above)" : ""} and a normal-theory interval: it does not guarantee coverage, nor use the CR2 ν (micro ν is often far below K − 1 with unequal sizes); check skewness and influential documents.`,
  );
  return warnings;
}

/**
 * M counts every document that could have been sampled, so a pilot or census of K documents
 * drawn from it has K ≤ M; a smaller M is a slip (a plan would answer "M documents").
 *
 * @throws RagciError "population-too-small" naming both numbers
 */
function requirePopulationHoldsSource(population: number | null, source: PlanSource): void {
  if (population === null || source.kind === "given" || population >= source.documents) return;
  throw new RagciError(
    "population-too-small",
    `${optionRef("population")} ${population} is smaller than the ${source.documents} documents of the ${source.kind} ${source.file}; M counts every document that could have been sampled`,
    { file: source.file, option: "population" },
  );
}

/** How sure a sample of the planned K is to hold enough documents where the two systems differ. */
const ENOUGH_DIFFER_PROBABILITY = 0.9;

/**
 * A pair's source: how many of its documents differ, and the K at which a sample holds at least
 * FEWEST_DIFFERING_DOCUMENTS of them with probability 0.9 (hypergeometric with M; binomial at
 * the source's share without), below which compare recommends no interval.
 */
function differingWarning(
  input: SamplePlanInput,
  estimands: readonly Estimand[],
  plans: Partial<Record<Estimand, EstimandPlan>>,
): string | null {
  const { source, population } = input;
  const d = input.differingDocuments;
  if (d === undefined || source.kind === "given" || !source.difference) return null;
  const k = source.documents;
  const fewest = FEWEST_DIFFERING_DOCUMENTS;
  const inPopulation =
    population === null ? null : source.kind === "census" ? d : Math.round((d / k) * population);
  const needed = documentsForDiffering(
    population === null || inPopulation === null
      ? { population: null, share: d / k }
      : { population, differing: inPopulation },
    fewest,
    ENOUGH_DIFFER_PROBABILITY,
  );
  const { a, b } = source.difference;
  const head = `In the ${source.kind}, ${d} of ${k} documents differ between ${b} and ${a} (${((100 * d) / k).toFixed(1)}%); the others are ties. compare recommends no interval of the difference (and a gate check is inconclusive) when fewer than ${fewest} documents of a sample differ, where ragci's paired studies found the intervals missing more often`;
  const model =
    population === null
      ? "binomial at this share; no M"
      : `hypergeometric, M = ${population}${source.kind === "census" ? "" : `, ${inPopulation} differing at this share`}`;
  if (needed === null)
    return `${head}; no sample reaches ${fewest} differing documents with probability ${ENOUGH_DIFFER_PROBABILITY * 100}% (${model}).`;
  const planned = estimands.filter((e) => plannedDocuments(plans[e]).some((x) => x < needed));
  return `${head}: K ≥ ${needed} holds at least ${fewest} with probability ${ENOUGH_DIFFER_PROBABILITY * 100}% (${model}).${planned.length > 0 ? ` The K planned above for ${planned.join(" and ")} is below it.` : ""}`;
}

/**
 * A paired plan from a given S: S does not tell how many documents tie, but a planned K below
 * FEWEST_DIFFERING_DOCUMENTS can never give compare the documents that differ it needs.
 */
function givenDifferingWarning(input: SamplePlanInput, k: number | null): string | null {
  const fewest = FEWEST_DIFFERING_DOCUMENTS;
  if (input.difference === undefined || k === null || k >= fewest) return null;
  return `compare recommends no interval of the difference (and a gate check is inconclusive) when fewer than ${fewest} documents of a sample differ between the two systems, so a sample of K = ${k} can never have one: label at least ${fewest} documents, and more where the systems tie on many (a pilot of the pair, ${optionRef("system")} COL=A,B, plans for its ties).`;
}

/** The K a plan gives: for the half-width, and to detect the difference (either may be absent). */
function plannedDocuments(plan: EstimandPlan | undefined): number[] {
  return [plan?.documents, plan?.detect?.documents].filter((k): k is number => k !== undefined);
}

/** The smallest K planned for any estimand, or null when none was planned. */
function smallestPlannedK(
  estimands: readonly Estimand[],
  plans: Partial<Record<Estimand, EstimandPlan>>,
): number | null {
  const ks = estimands.flatMap((e) => plannedDocuments(plans[e]));
  return ks.length === 0 ? null : Math.min(...ks);
}

/**
 * A planned K below 20: what ragci's studies found at K = 5 or 10, paired (the paired studies)
 * or of one system (the five censuses), so a small answer is not read as a safe one.
 */
function smallPlanWarning(input: SamplePlanInput, k: number | null): string | null {
  if (k === null || k >= 20) return null;
  const at = k <= 5 ? "k5" : "k10";
  const paired =
    input.difference !== undefined ||
    (input.source.kind !== "given" && input.source.difference !== undefined);
  if (paired) {
    // The largest studied K at or below the plan's, as compare's advice quotes (pairedStudyK).
    const studied = pairedStudyK(k);
    const c = (key: string) =>
      percentText(
        PAIRED_STUDY_COVERAGE[`k${studied}-${key}` as keyof typeof PAIRED_STUDY_COVERAGE],
      );
    return `The plan's K = ${k} is below 20: at K = ${studied} the intervals of a paired difference covered ${c("lowest/micro/cr2")}–${c("highest/micro/cr2")} of 95% (micro cr2) and ${c("lowest/macro/t-differing")}–${c("highest/macro/t-differing")} (macro t-differing, t with ν = D − 1, which compare recommends) (${PAIRED_STUDIES}); at that K the nominal level is approximate, so label at least 20 documents where you can.`;
  }
  const c = (key: string) =>
    percentText(RAGCI_STUDY_COVERAGE[`${at}-${key}` as keyof typeof RAGCI_STUDY_COVERAGE]);
  return `The plan's K = ${k} is below 20: at K = ${at === "k5" ? 5 : 10} ragci's studies found the recommended intervals at ${c("lowest/micro/logit-cv3")} or more (micro logit-cv3) and ${c("lowest/macro/logit")} or more (macro logit) of 95% over censuses from even to power-law sizes, and cr2 far lower on skewed ones (docs/choosing-an-interval.md); at that K the nominal level is approximate, so label at least 20 documents where you can.`;
}
