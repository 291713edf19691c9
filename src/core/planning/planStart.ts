import { differingDocuments } from "../diagnostics/differingDocuments.js";
import { optionRef, RagciError } from "../errors.js";
import type { DocumentStats, Estimand } from "../types.js";
import { pilotStandardDeviations } from "./pilotStandardDeviations.js";
import type { PlanSource } from "./samplePlan.js";

/** What a plan starts from: S per estimand, M, and where S came from. */
export interface PlanStart {
  readonly sd: Partial<Record<Estimand, number>>;
  readonly population: number | null;
  readonly source: PlanSource;
  /** The census's per-document sums (for a stratified plan), when the source is a census. */
  readonly census: DocumentStats | null;
  /** The system a paired plan's S was taken from, picked from a source of several. */
  readonly oneSystemForDifference: string | null;
  /** A pair's pilot or census: its documents whose summed difference is not 0 (optional). */
  readonly differingDocuments?: number;
}

/** What a plan's S may come from: given, or a pilot's or census's per-document table. */
export interface PlanStartInput {
  /** S for both estimands (or sdMacro / sdMicro), when there is no pilot. */
  readonly sd?: number;
  readonly sdMacro?: number;
  readonly sdMicro?: number;
  readonly population?: number;
  /** The pilot is the whole population (M = its K). */
  readonly census?: boolean;
  /** A paired plan's difference to detect. */
  readonly difference?: number;
}

/** A pilot or census: one system's per-document table, or a pair's differences. */
export interface PlanPilot {
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly pair: { readonly a: string; readonly b: string } | null;
  /** Systems in the source (a system picked from several is noted in a paired plan). */
  readonly systemsFound: number;
  /** The system selection as given (named in that note). */
  readonly system: string | null;
  /** How the source is named in the plan and in messages, and its digest. */
  readonly file: string;
  readonly named: string;
  readonly sha256: string;
}

/**
 * A plan's start from a pilot or census: S per estimand, M (the census's K with `census`,
 * checked against `population`), and where S came from.
 *
 * @throws RagciError when `census` and `population` disagree
 */
export function planStartFromPilot(pilot: PlanPilot, input: PlanStartInput): PlanStart {
  const s = pilotStandardDeviations(pilot.stats);
  let population = input.population ?? null;
  if (input.census) {
    if (population !== null && population !== s.documents) {
      throw new RagciError(
        "invalid-option",
        `${optionRef("census")}: ${pilot.named} has ${s.documents} documents but ${optionRef("population")} says ${population}: a census holds every document of the population; drop ${optionRef("population")} (the census gives M) or give the whole census`,
        { option: "population" },
      );
    }
    population = s.documents;
  }
  return {
    sd: { macro: s.macro, micro: s.micro },
    population,
    source: {
      kind: input.census ? "census" : "pilot",
      file: pilot.file,
      documents: s.documents,
      sha256: pilot.sha256,
      ...(pilot.pair ? { difference: { ...pilot.pair, metric: pilot.metric } } : {}),
    },
    census: pilot.stats,
    ...(pilot.pair ? { differingDocuments: differingDocuments(pilot.stats) } : {}),
    oneSystemForDifference:
      input.difference !== undefined && !pilot.pair && pilot.systemsFound > 1 ? pilot.system : null,
  };
}

/**
 * A plan's start from S given (`sd`, or `sdMacro` / `sdMicro`).
 *
 * @throws RagciError without S, or with `census` (which needs the census itself)
 */
export function planStartFromSd(input: PlanStartInput): PlanStart {
  if (input.census)
    throw new RagciError(
      "invalid-option",
      `${optionRef("census")} needs the census file (or ${optionRef("url")})`,
      { option: "census" },
    );
  const macro = input.sdMacro ?? input.sd;
  const micro = input.sdMicro ?? input.sd;
  if (macro === undefined && micro === undefined) {
    throw new RagciError(
      "invalid-option",
      `give S with ${optionRef("sd")} (or ${optionRef("sdMacro")} / ${optionRef("sdMicro")}), or a pilot file (or ${optionRef("url")}) to estimate it from`,
      { option: "sd" },
    );
  }
  return {
    sd: {
      ...(macro === undefined ? {} : { macro }),
      ...(micro === undefined ? {} : { micro }),
    },
    population: input.population ?? null,
    source: { kind: "given" },
    census: null,
    oneSystemForDifference: null,
  };
}
