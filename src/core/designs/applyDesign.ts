import type { EstimandAnalysis } from "../estimandAnalysis.js";
import { logitInterval } from "../intervals/logitInterval.js";
import { criticalValue } from "../intervals/tInterval.js";
import type { Advice } from "../recommendMethod.js";
import type { DocumentStats, Estimand } from "../types.js";
import type { DesignInterval } from "./designInterval.js";
import { groupIndices } from "./groupIndices.js";
import { type StratifiedDesign, stratifiedEstimates } from "./stratified.js";
import { type TwoStageDesign, twoStageEstimates } from "./twoStage.js";

/** A design other than SRS of documents, declared once (SPEC §4). */
export type DocumentDesign =
  | ({ readonly kind: "stratified" } & StratifiedDesign)
  | ({ readonly kind: "two-stage" } & TwoStageDesign);

/**
 * Puts the design's interval first and makes every other interval follow it: the logit
 * interval is rebuilt on the design's estimate, se and ν; the document bootstraps, which
 * resample one simple sample, are marked unavailable. Contrasts stay as SRS contrasts.
 */
export function withDesign(
  srs: { readonly micro: EstimandAnalysis; readonly macro: EstimandAnalysis },
  stats: DocumentStats,
  options: {
    readonly design: DocumentDesign;
    readonly level: number;
    readonly metricInUnitInterval: boolean;
  },
): Record<Estimand, EstimandAnalysis> {
  const { micro, macro } = srs;
  const { design, level, metricInUnitInterval } = options;
  const notUnder = {
    available: false as const,
    reason: `resamples the documents as one simple random sample; not valid under the ${design.kind} design`,
  };
  const result =
    design.kind === "stratified"
      ? stratifiedEstimates(stats, design, level)
      : twoStageEstimates(stats, design, level);
  const add = (e: EstimandAnalysis, d: DesignInterval): EstimandAnalysis => ({
    ...e,
    estimate: d.estimate,
    recommended: design.kind,
    intervals: {
      [design.kind]: {
        available: true,
        lower: d.lower,
        upper: d.upper,
        se: d.se,
        df: d.df,
        q: criticalValue(level, d.df),
      },
      ...e.intervals,
      logit: logitInterval(d.estimate, { se: d.se, df: d.df }, level, metricInUnitInterval),
      ...("bootstrap-t" in e.intervals
        ? { "bootstrap-t": notUnder, "bootstrap-percentile": notUnder }
        : {}),
      ...("logit-cv3" in e.intervals
        ? {
            "logit-cv3": {
              available: false as const,
              reason: `the leave-one-document-out variance of one simple random sample; not valid under the ${design.kind} design`,
            },
          }
        : {}),
    },
  });
  return { micro: add(micro, result.micro), macro: add(macro, result.macro) };
}

/** ν of the design's interval (the same for micro and macro), or null under SRS. */
export function designDegreesOfFreedom(
  designed: Record<Estimand, EstimandAnalysis> | null,
): number | null {
  const interval = designed?.micro.intervals[designed.micro.recommended];
  return interval?.available ? interval.df : null;
}

/** Documents sampled in a stratum or unit, and how many it holds in the population. */
export interface DesignGroupCounts {
  readonly sampled: number;
  readonly population: number;
}

/** The design's groups as a report shows them: each stratum, or T and each first-stage unit. */
export type DesignDetail =
  | { readonly strata: Readonly<Record<string, DesignGroupCounts>> }
  | {
      readonly firstStagePopulation: number;
      readonly units: Readonly<Record<string, DesignGroupCounts>>;
    };

export function designDetail(design: DocumentDesign): DesignDetail {
  const count = (labels: readonly string[]) =>
    Object.fromEntries([...groupIndices(labels)].map(([label, at]) => [label, at.length]));
  if (design.kind === "stratified") {
    const sampled = count(design.strata);
    return {
      strata: Object.fromEntries(
        Object.entries(sampled).map(([h, k]) => [
          h,
          { sampled: k, population: design.populationSizes[h] as number },
        ]),
      ),
    };
  }
  const sampled = count(design.units);
  return {
    firstStagePopulation: design.firstStagePopulation,
    units: Object.fromEntries(
      Object.entries(sampled).map(([u, k]) => [
        u,
        { sampled: k, population: design.secondStagePopulation[u] as number },
      ]),
    ),
  };
}

/** The note that says what the declared design changes in the report. */
export function designDeclaredAdvice(design: DocumentDesign): Advice {
  return {
    code: "design-declared",
    severity: "note",
    message:
      design.kind === "two-stage"
        ? "Two-stage design: the recommended interval uses the first- and second-stage variance with ν = m − 1, and the logit interval is built on it; the document bootstraps assume one simple sample and are not available; the contrasts treat the documents as one simple sample and are shown for comparison only."
        : "Stratified design: the recommended interval is the design-based one with each stratum's fpc and ν = K − H, and the logit interval is built on it; the document bootstraps ignore the strata and are not available; the contrasts ignore the strata and are shown for comparison only.",
  };
}
