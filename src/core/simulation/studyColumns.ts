import type { AllocationRule } from "../designs/allocation.js";
import type { DocumentStats } from "../types.js";
import type { StudyOptions } from "./coverageStudy.js";
import { refuseDegenerateStudy } from "./degenerateStudy.js";
import { sizeStudyStrata } from "./stratifiedSample.js";
import { checkTwoStagePopulation, mostDocuments, studyUnits } from "./twoStageSample.js";

/** How each repetition of a study draws its sample. */
export type StudyDesign =
  | { readonly kind: "srs" }
  | { readonly kind: "stratified"; readonly cutoff: number; readonly allocation: AllocationRule }
  | {
      readonly kind: "two-stage";
      /** Each census document's first-stage unit, aligned with the census. */
      readonly labels: readonly string[];
      readonly perUnit: number;
      /** A two-stage design file's T and M_i, which must describe the census; null for none. */
      readonly population: {
        readonly firstStage: number;
        readonly secondStage: Readonly<Record<string, number>>;
        readonly source: string;
      } | null;
    };

export interface StudyColumnsInput {
  /** K per column (m, units per sample, under a two-stage design). */
  readonly columns: readonly number[];
  /** Repetitions per column. */
  readonly repetitions: readonly number[];
  readonly design: StudyDesign;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly fpc: boolean;
  readonly chunkBootstrap: boolean;
  /** The census holds paired differences b − a. */
  readonly differences: boolean;
}

/**
 * The studies of a `simulate` table, one per column, every column's strata or units built and
 * checked before any work starts: K documents by SRS; size strata with K allocated by the rule;
 * or m units then k documents in each, where K = m·k is the most a sample holds.
 *
 * @throws RagciError when a K exceeds the census, or the strata or units cannot be drawn
 */
export function studyColumns(census: DocumentStats, input: StudyColumnsInput): StudyOptions[] {
  const { design } = input;
  const M = census.n.length;
  return input.columns.map((k, i) => {
    if (design.kind !== "two-stage") refuseDegenerateStudy(k, M, `K = ${k}`);
    const units = design.kind === "two-stage" ? studyUnits(design.labels, k, design.perUnit) : null;
    if (units && design.kind === "two-stage" && design.population) {
      const { firstStage, secondStage, source } = design.population;
      checkTwoStagePopulation(units, firstStage, secondStage, source);
    }
    return {
      documents: units ? mostDocuments(units) : k,
      repetitions: input.repetitions[i] as number,
      replicates: input.replicates,
      seed: input.seed,
      level: input.level,
      fpc: input.fpc,
      chunkBootstrap: input.chunkBootstrap,
      differences: input.differences,
      strata:
        design.kind === "stratified"
          ? sizeStudyStrata(census, design.cutoff, k, design.allocation)
          : null,
      units,
    };
  });
}
