import { type AllocationRule, DEFAULT_ALLOCATION } from "../designs/allocation.js";
import { optionRef, RagciError } from "../errors.js";
import { refuseDegenerateStudy } from "./degenerateStudy.js";

/** How a coverage study draws its samples: SRS, size strata, or units then documents. */
export type StudySampling = "srs" | "stratified" | "two-stage";
export const STUDY_SAMPLINGS: readonly StudySampling[] = ["srs", "stratified", "two-stage"];

/** How a coverage study on a census draws its samples, and at which sizes (simulate's options). */
export interface StudyPlanOptions {
  /** The study's sampling (default srs; two-stage when a design file is given). */
  readonly sampling?: StudySampling;
  /** A two-stage design file (JSON, as analyze reads it) whose T and M_i the census must match. */
  readonly design?: string;
  /** Size strata: large documents have more than `cutoff` results. */
  readonly cutoff?: number;
  /** Size strata: how K is shared between them (default neyman, on micro's S_h). */
  readonly allocation?: AllocationRule;
  /** Two-stage: the census's first-stage unit column (default psu). */
  readonly psu?: string;
  /** K, documents per sample, one column each (default 5, 10, 20); not two-stage. */
  readonly k?: readonly number[];
  /** Two-stage: m, units drawn per sample, one column each. */
  readonly units?: readonly number[];
  /** Two-stage: documents drawn in each drawn unit. */
  readonly perUnit?: number;
  /** Repetitions: one number, or one per column (default 2000). */
  readonly reps?: readonly number[];
}

export type SimulationDesign =
  | { readonly kind: "srs" }
  | { readonly kind: "stratified"; readonly cutoff: number; readonly allocation: AllocationRule }
  | {
      readonly kind: "two-stage";
      readonly unitColumn: string;
      readonly perUnit: number;
      /** A two-stage design file whose T and M_i must match the census, or null. */
      readonly file: string | null;
    };

/** The study's columns (K, or m units for two-stage) and the repetitions at each. */
export interface StudySizes {
  readonly columns: number[];
  readonly repetitions: number[];
  /** What a column is: K, or m (units per sample). */
  readonly perColumn: "K" | "m";
}

export interface StudyPlan {
  readonly design: SimulationDesign;
  readonly sizes: StudySizes;
}

const refuse = (message: string) => new RagciError("invalid-option", message);

/** Whole numbers ≥ minimum (a library caller's; the CLI's parsers check them first). */
function wholeNumbers(
  name: "k" | "units" | "perUnit" | "reps",
  values: readonly number[],
  min: number,
) {
  const bad = values.find((v) => !Number.isSafeInteger(v) || v < min);
  if (bad !== undefined) throw refuse(`${optionRef(name)} ${bad}: give whole numbers ≥ ${min}`);
  // A size given twice would run the same study twice (the same seed: the same samples).
  const twice = name === "reps" ? undefined : values.find((v, i) => values.indexOf(v) < i);
  if (twice !== undefined)
    throw refuse(`${optionRef(name)} ${values.join(",")}: ${twice} is given twice; give each once`);
  return [...values];
}

/**
 * The study sampling `text` names (simulate --sampling).
 *
 * @throws RagciError naming the three samplings
 */
export function studySampling(text: string): StudySampling {
  if ((STUDY_SAMPLINGS as readonly string[]).includes(text)) return text as StudySampling;
  const [units, perUnit] = [optionRef("units"), optionRef("perUnit")];
  throw refuse(
    `${optionRef("sampling")} ${text}: use srs, stratified (size strata, with ${optionRef("cutoff")} C) or two-stage (units then documents, with ${optionRef("psu")}, ${units}, ${perUnit})`,
  );
}

/**
 * The study's design from `sampling` (or the `design` file's two-stage) and its options, each
 * option refused where it does not apply.
 */
function simulationDesign(options: StudyPlanOptions): SimulationDesign {
  const file = options.design;
  const names = ["sampling", "design", "cutoff", "psu", "units", "perUnit", "k"] as const;
  const [sampling, design, cutoff, psu, units, perUnit, k] = names.map((name) => optionRef(name));
  const kind =
    options.sampling === undefined
      ? file === undefined
        ? "srs"
        : "two-stage"
      : studySampling(options.sampling);
  if (file !== undefined && kind !== "two-stage") {
    throw refuse(
      `${design} ${file}: simulate reads a two-stage design file, and ${sampling} ${kind} takes none; give ${sampling} two-stage, or no ${design}`,
    );
  }
  if (kind !== "stratified" && options.cutoff !== undefined)
    throw refuse(`${cutoff} belongs to ${sampling} stratified`);
  if (kind !== "stratified" && options.allocation !== undefined)
    throw refuse(`${optionRef("allocation")} belongs to ${sampling} stratified`);
  if (
    kind !== "two-stage" &&
    ((options.units ?? []).length > 0 || options.perUnit !== undefined || options.psu)
  ) {
    throw refuse(
      `${psu}, ${units} and ${perUnit} belong to a two-stage study: ${sampling} two-stage (or a two-stage ${design} FILE.json)`,
    );
  }
  if (kind === "stratified") {
    if (options.cutoff === undefined) {
      throw refuse(
        `${sampling} stratified needs the size cutoff: ${cutoff} C (large documents have more than C results; ragci strata proposes one)`,
      );
    }
    return { kind, cutoff: options.cutoff, allocation: options.allocation ?? DEFAULT_ALLOCATION };
  }
  if (kind === "two-stage") {
    if ((options.k ?? []).length > 0) {
      throw refuse(
        `a two-stage study's columns are ${units} m (units per sample) with ${perUnit} k documents in each; ${k} does not apply`,
      );
    }
    if ((options.units ?? []).length === 0 || options.perUnit === undefined) {
      throw refuse(
        `a two-stage study needs ${units} m (units drawn per sample, e.g. 4,8) and ${perUnit} k (documents drawn in each)`,
      );
    }
    return {
      kind,
      unitColumn: options.psu ?? "psu",
      perUnit: wholeNumbers("perUnit", [options.perUnit], 2)[0] as number,
      file: file ?? null,
    };
  }
  return { kind: "srs" };
}

/**
 * A coverage study's design and sizes (simulate's options): SRS, size strata or two-stage, the
 * columns (K, or m units) and the repetitions at each, every option checked against the others.
 *
 * @throws RagciError naming the option to change
 */
export function studyPlan(options: StudyPlanOptions): StudyPlan {
  const design = simulationDesign(options);
  const twoStage = design.kind === "two-stage";
  const columns = twoStage
    ? wholeNumbers("units", options.units ?? [], 2)
    : wholeNumbers("k", (options.k ?? []).length > 0 ? (options.k ?? []) : [5, 10, 20], 2);
  const perColumn = twoStage ? "m" : "K";
  const given = options.reps ?? [];
  const reps = wholeNumbers("reps", given.length > 0 ? given : [2000], 1);
  if (reps.length !== 1 && reps.length !== columns.length) {
    throw refuse(
      `${optionRef("reps")} ${given.join(",")}: give one number, or one per ${perColumn} (${columns.length} of them)`,
    );
  }
  const repetitions = columns.map((_, i) => (reps[i] ?? reps[0]) as number);
  return { design, sizes: { columns, repetitions, perColumn } };
}

/** @throws RagciError when a K of an SRS or stratified study exceeds the census's documents */
export function checkColumnsFit(plan: StudyPlan, documents: number): void {
  if (plan.design.kind === "two-stage") return;
  const tooMany = plan.sizes.columns.find((k) => k >= documents);
  if (tooMany !== undefined)
    refuseDegenerateStudy(tooMany, documents, `${optionRef("k")} ${tooMany}`);
}
