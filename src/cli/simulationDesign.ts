import type { Command } from "commander";
import { type AllocationRule, DEFAULT_ALLOCATION } from "../core/designs/allocation.js";
import { RagciError } from "../core/errors.js";
import { refuseDegenerateStudy } from "../core/simulation/degenerateStudy.js";
import type { StudyDesign } from "../core/simulation/studyColumns.js";
import { readDesign } from "../ingest/index.js";
import { nonNegativeNumber, parseAllocation, parseList, wholeNumbers } from "./options.js";

/** The flags of simulate that choose how each repetition draws its sample. */
export interface SimulationDesignFlags {
  readonly design?: string;
  readonly cutoff?: number;
  readonly allocation: AllocationRule;
  readonly psu?: string;
  readonly k: readonly string[];
  readonly units: readonly string[];
  readonly perUnit?: string;
  readonly reps: readonly string[];
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

/** Adds simulate's design flags: --design, and --cutoff, --allocation, --psu, --units, --per-unit. */
export function withSimulationDesignOptions(command: Command): Command {
  return command
    .option(
      "--design <design>",
      "stratified: sample size strata (with --cutoff and --allocation); two-stage or a two-stage design FILE.json: units, then documents (with --psu, --units, --per-unit); the design's interval is scored too",
    )
    .option(
      "--cutoff <n>",
      "with --design stratified: large documents have more than n results",
      nonNegativeNumber("--cutoff"),
    )
    .option(
      "--allocation <rule>",
      "with --design stratified: equal, proportional or neyman",
      parseAllocation,
      DEFAULT_ALLOCATION,
    )
    .option(
      "--psu <column>",
      "with a two-stage design: the census's first-stage unit column (default: psu)",
    )
    .option(
      "--units <m>",
      "with a two-stage design: units drawn per sample, comma-separated",
      parseList,
      [],
    )
    .option("--per-unit <k>", "with a two-stage design: documents drawn in each drawn unit");
}

/** The study's design from --design and its flags, each flag refused where it does not apply. */
export function simulationDesign(options: SimulationDesignFlags): SimulationDesign {
  const given = options.design;
  const kind =
    given === undefined
      ? "srs"
      : given === "stratified"
        ? "stratified"
        : given === "two-stage" || /\.json$/i.test(given)
          ? "two-stage"
          : null;
  if (kind === null) {
    throw new RagciError(
      "invalid-option",
      `--design ${given}: use stratified (size strata, with --cutoff C), two-stage (with --psu, --units, --per-unit), or a two-stage design FILE.json`,
    );
  }
  if (kind !== "stratified" && options.cutoff !== undefined)
    throw new RagciError("invalid-option", "--cutoff belongs to --design stratified");
  if (kind !== "two-stage" && (options.units.length > 0 || options.perUnit || options.psu)) {
    throw new RagciError(
      "invalid-option",
      "--psu, --units and --per-unit belong to a two-stage study: --design two-stage (or a two-stage design FILE.json)",
    );
  }
  if (kind === "stratified") {
    if (options.cutoff === undefined) {
      throw new RagciError(
        "invalid-option",
        "--design stratified needs the size cutoff: --cutoff C (large documents have more than C results; ragci strata proposes one)",
      );
    }
    return {
      kind,
      cutoff: options.cutoff,
      allocation: options.allocation,
    };
  }
  if (kind === "two-stage") {
    if (options.k.length > 0) {
      throw new RagciError(
        "invalid-option",
        "a two-stage study's columns are --units m (units per sample) with --per-unit k documents in each; --k does not apply",
      );
    }
    if (options.units.length === 0 || options.perUnit === undefined) {
      throw new RagciError(
        "invalid-option",
        "a two-stage study needs --units m (units drawn per sample, e.g. 4,8) and --per-unit k (documents drawn in each)",
      );
    }
    return {
      kind,
      unitColumn: options.psu ?? "psu",
      perUnit: wholeNumbers("--per-unit", [options.perUnit], 2)[0] as number,
      file: given === "two-stage" ? null : (given as string),
    };
  }
  return { kind: "srs" };
}

/** The study's columns (K, or m units for two-stage) and the repetitions at each. */
export interface StudySizes {
  readonly columns: number[];
  readonly repetitions: number[];
  /** What a column is: K, or m (units per sample). */
  readonly perColumn: string;
}

/** The study's columns and repetitions from --k (or --units) and --reps. */
export function studySizes(options: SimulationDesignFlags, design: SimulationDesign): StudySizes {
  const columns =
    design.kind === "two-stage"
      ? wholeNumbers("--units", options.units, 2)
      : wholeNumbers("--k", options.k.length > 0 ? options.k : ["5", "10", "20"], 2);
  const perColumn = design.kind === "two-stage" ? "m" : "K";
  const reps = wholeNumbers("--reps", options.reps.length > 0 ? options.reps : ["2000"], 1);
  if (reps.length !== 1 && reps.length !== columns.length) {
    throw new RagciError(
      "invalid-option",
      `--reps ${options.reps.join(",")}: give one number, or one per ${perColumn} (${columns.length} of them)`,
    );
  }
  return {
    columns,
    repetitions: columns.map((_, i) => (reps[i] ?? reps[0]) as number),
    perColumn,
  };
}

/** @throws RagciError when a K of an SRS or stratified study exceeds the census's documents */
export function checkColumnsFit(
  columns: readonly number[],
  design: SimulationDesign,
  documents: number,
): void {
  const tooMany = design.kind === "two-stage" ? undefined : columns.find((k) => k >= documents);
  if (tooMany !== undefined) refuseDegenerateStudy(tooMany, documents, `--k ${tooMany}`);
}

/**
 * The design core's studyColumns takes: a two-stage design gets the census's unit labels and,
 * from a design file, the T and M_i the census must match.
 *
 * @throws RagciError when the design file is not two-stage
 */
export async function studyDesign(
  design: SimulationDesign,
  labels: readonly string[] | null,
): Promise<StudyDesign> {
  if (design.kind !== "two-stage") return design;
  const fileDesign = design.file ? await readDesign(design.file) : null;
  if (fileDesign && fileDesign.kind !== "two-stage") {
    throw new RagciError(
      "invalid-option",
      `--design ${design.file}: simulate reads a two-stage design file (${design.file} is ${fileDesign.kind}); size strata are --design stratified --cutoff C, and an SRS study needs no --design`,
    );
  }
  return {
    kind: "two-stage",
    labels: labels ?? [],
    perUnit: design.perUnit,
    population:
      fileDesign?.kind === "two-stage"
        ? {
            firstStage: fileDesign.firstStagePopulation,
            secondStage: fileDesign.secondStagePopulation,
            source: design.file as string,
          }
        : null,
  };
}
