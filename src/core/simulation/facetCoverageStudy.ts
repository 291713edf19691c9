import { RagciError } from "../errors.js";
import type { FacetComponent } from "../facets/facetCells.js";
import { type FacetEstimate, type FacetInterval, facetInterval } from "../facets/facetInterval.js";
import { validateLevel } from "../intervals/level.js";
import { uniformSource } from "../numeric/uniform.js";
import { type FacetDesignSize, facetEvaluation } from "./facetEvaluation.js";
import { type FacetModel, facetModelTruth } from "./facetModel.js";
import { monteCarloSe } from "./recommendFromStudy.js";

/** The intervals facetInterval computes, scored by the study. */
export const FACET_STUDY_INTERVALS = ["population", "reml", "spread", "fixed"] as const;
export type FacetStudyInterval = (typeof FACET_STUDY_INTERVALS)[number];

/** What one repetition gives: each interval (null where facetInterval has none) and the fit. */
export interface FacetRepetition {
  readonly intervals: Readonly<
    Record<FacetStudyInterval, { lower: number; upper: number; df: number | null } | null>
  >;
  readonly components: Partial<Record<FacetComponent, number>>;
  readonly recommended: "population" | "fixed";
}

/** One interval's score over the repetitions. */
export interface FacetIntervalScore {
  /** Share of repetitions whose interval contains the truth. */
  readonly coverage: number;
  /** Monte-Carlo standard error of `coverage`, √(p(1 − p)/reps). */
  readonly mcse: number;
  readonly meanWidth: number;
  /** Mean degrees of freedom (null where the interval has none). */
  readonly meanDf: number | null;
  /** Interval wholly below the truth, and wholly above it (shares). */
  readonly missBelow: number;
  readonly missAbove: number;
}

/** A coverage study of the faceted intervals at one design. */
export interface FacetStudyResult {
  readonly design: FacetDesignSize;
  readonly reps: number;
  readonly seed: number;
  readonly level: number;
  /** The generating model's mean over documents, queries, judges, wordings and trials. */
  readonly truth: number;
  /** What facetInterval recommends at this design. */
  readonly recommended: "population" | "fixed";
  /** Each interval's score; null where the design gives no such interval (no judge or wording). */
  readonly intervals: Readonly<Record<FacetStudyInterval, FacetIntervalScore | null>>;
  /** The REML components averaged over the repetitions (the decomposition the fits see). */
  readonly meanComponents: Partial<Record<FacetComponent, number>>;
}

export interface FacetStudyOptions {
  readonly reps: number;
  readonly seed: number;
  readonly level: number;
  /** Called after each repetition. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * A pilot study's studies, one per design, for one system's and a pair's alike: every design is
 * checked before any runs, so a bad one fails at once; progress is numbered by design.
 */
export function facetStudiesAtDesigns<M>(
  model: M,
  designs: readonly FacetDesignSize[],
  options: Omit<FacetStudyOptions, "onProgress"> & {
    readonly onProgress?: ((study: number, done: number, total: number) => void) | undefined;
  },
  study: (model: M, design: FacetDesignSize, options: FacetStudyOptions) => FacetStudyResult,
): FacetStudyResult[] {
  for (const design of designs) checkFacetStudy(design, options.reps, options.level);
  return designs.map((design, s) =>
    study(model, design, {
      reps: options.reps,
      seed: options.seed,
      level: options.level,
      onProgress: (done, total) => options.onProgress?.(s, done, total),
    }),
  );
}

function bounds(e: FacetEstimate | null) {
  return e ? { lower: e.interval.lower, upper: e.interval.upper, df: e.interval.df } : null;
}

/**
 * Repetition i of a study: one evaluation drawn from the model with the uniforms of
 * `Generator(PCG64(SeedSequence(seed, spawn_key=(i, 2)))).random()` (facetEvaluation's order;
 * normals by Box–Muller), and every interval of facetInterval on it. Repetitions are
 * independent streams, so any one can be replayed alone.
 */
export function facetRepetition(
  model: FacetModel,
  design: FacetDesignSize,
  options: { readonly seed: number; readonly repetition: number; readonly level: number },
): FacetRepetition {
  const cells = facetEvaluation(
    model,
    design,
    uniformSource(options.seed, [options.repetition, 2]),
  );
  return repetitionOfInterval(facetInterval(cells, { level: options.level }));
}

/** What a study keeps of one faceted fit: each interval's bounds, the components, the advice. */
export function repetitionOfInterval(result: FacetInterval): FacetRepetition {
  return {
    intervals: {
      population: bounds(result.population),
      reml: bounds(result.reml),
      spread: bounds(result.spread),
      fixed: bounds(result.fixed),
    },
    components: result.components.components,
    recommended: result.recommended,
  };
}

/** Checks a design and a study's size. */
export function checkFacetStudy(design: FacetDesignSize, reps: number, level: number): void {
  validateLevel(level);
  const whole = (name: string, value: number, least: number) => {
    if (!Number.isInteger(value) || value < least)
      throw new RagciError(
        "invalid-option",
        `a faceted study needs ${name} to be a whole number ≥ ${least}; got ${value}`,
      );
  };
  whole("documents", design.documents, 2);
  whole("queries per document", design.queries, 1);
  whole("trials", design.trials, 1);
  whole("judges", design.judges, 1);
  whole("variants", design.variants, 1);
  whole("repetitions", reps, 1);
}

/** Scores repetitions against the truth. */
export function summarizeFacetStudy(
  repetitions: readonly FacetRepetition[],
  context: {
    readonly design: FacetDesignSize;
    readonly seed: number;
    readonly level: number;
    readonly truth: number;
  },
): FacetStudyResult {
  const reps = repetitions.length;
  const intervals = {} as Record<FacetStudyInterval, FacetIntervalScore | null>;
  for (const key of FACET_STUDY_INTERVALS) {
    const seen = repetitions.map((r) => r.intervals[key]).filter((x) => x !== null);
    if (seen.length === 0) {
      intervals[key] = null;
      continue;
    }
    let covered = 0;
    let below = 0;
    let above = 0;
    let width = 0;
    let df = 0;
    let dfCount = 0;
    for (const i of seen) {
      if (i.upper < context.truth) below++;
      else if (i.lower > context.truth) above++;
      else covered++;
      width += i.upper - i.lower;
      if (i.df !== null && Number.isFinite(i.df)) {
        df += i.df;
        dfCount++;
      }
    }
    // An interval missing from some repetitions counts as not covering there.
    const coverage = covered / reps;
    intervals[key] = {
      coverage,
      mcse: monteCarloSe(coverage, reps),
      meanWidth: width / seen.length,
      meanDf: dfCount > 0 ? df / dfCount : null,
      missBelow: below / reps,
      missAbove: above / reps,
    };
  }
  const meanComponents: Partial<Record<FacetComponent, number>> = {};
  for (const r of repetitions)
    for (const [k, v] of Object.entries(r.components) as [FacetComponent, number][])
      meanComponents[k] = (meanComponents[k] ?? 0) + v / reps;
  return {
    design: context.design,
    reps,
    seed: context.seed,
    level: context.level,
    truth: context.truth,
    recommended: repetitions[0]?.recommended ?? "fixed",
    intervals,
    meanComponents,
  };
}

/**
 * Coverage of every faceted interval (facetInterval: the recommended population interval, its
 * REML and spread parts, and the document-only interval for these judges) over `reps`
 * evaluations drawn from a generating model at a balanced design. The truth is the model's mean
 * over its populations of documents, queries, judges and wordings (facetModelTruth): the
 * estimand of the population interval, with judges and wordings drawn afresh each repetition.
 * Deterministic for a seed.
 *
 * @throws RagciError "invalid-option" for a design or size that is not whole numbers, or a level
 *   outside (0, 1)
 */
export function facetCoverageStudy(
  model: FacetModel,
  design: FacetDesignSize,
  options: FacetStudyOptions,
): FacetStudyResult {
  return runFacetStudy(design, options, facetModelTruth(model), (i) =>
    facetRepetition(model, design, { seed: options.seed, repetition: i, level: options.level }),
  );
}

/**
 * A faceted study's frame, for one system's and a pair's alike: checks the design and size,
 * runs repetitions 0 … reps − 1 in order (progress after each), scores them against the truth.
 */
export function runFacetStudy(
  design: FacetDesignSize,
  options: FacetStudyOptions,
  truth: number,
  repetition: (i: number) => FacetRepetition,
): FacetStudyResult {
  checkFacetStudy(design, options.reps, options.level);
  const repetitions: FacetRepetition[] = [];
  for (let i = 0; i < options.reps; i++) {
    repetitions.push(repetition(i));
    options.onProgress?.(i + 1, options.reps);
  }
  return summarizeFacetStudy(repetitions, {
    design,
    seed: options.seed,
    level: options.level,
    truth,
  });
}
