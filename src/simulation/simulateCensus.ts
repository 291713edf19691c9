import { metricKindOf } from "../core/analyze.js";
import { optionRef, RagciError } from "../core/errors.js";
import { CHUNK_BOOTSTRAP_SKIPPED } from "../core/simulation/coverageStudy.js";
import { refuseConstantCensus } from "../core/simulation/degenerateStudy.js";
import { fpcOmittedNote } from "../core/simulation/fpcOmittedNote.js";
import { recommendFromStudy } from "../core/simulation/recommendFromStudy.js";
import type { StudyDesign } from "../core/simulation/studyColumns.js";
import { checkColumnsFit, type StudyPlan } from "../core/simulation/studyPlan.js";
import { censusTruth } from "../core/simulation/studySummary.js";
import { type OneOrPairRead, readDesign } from "../ingest/index.js";
import type { SimulationReport } from "../report/simulationReport.js";
import {
  runStudyColumns,
  type StudyColumnSettings,
  type StudyColumnsRun,
} from "./runStudyColumns.js";

/**
 * The design core's studyColumns takes: a two-stage design gets the census's unit labels and,
 * from a design file, the T and M_i the census must match.
 *
 * @throws RagciError when the design file is not two-stage
 */
async function studyDesign(
  plan: StudyPlan,
  labels: readonly string[] | null,
): Promise<StudyDesign> {
  const { design } = plan;
  if (design.kind !== "two-stage") return design;
  const file = design.file;
  const fileDesign = file ? await readDesign(file) : null;
  if (fileDesign && fileDesign.kind !== "two-stage") {
    throw new RagciError(
      "invalid-option",
      `${optionRef("design")} ${file}: simulate reads a two-stage design file (${file} is ${fileDesign.kind}); size strata are ${optionRef("sampling")} stratified ${optionRef("cutoff")} C, and an SRS study needs no ${optionRef("design")}`,
    );
  }
  const population =
    fileDesign?.kind === "two-stage"
      ? {
          firstStage: fileDesign.firstStagePopulation,
          secondStage: fileDesign.secondStagePopulation,
          source: file as string,
        }
      : null;
  return { kind: "two-stage", labels: labels ?? [], perUnit: design.perUnit, population };
}

/** A census (or a faceted pilot) as a simulation report names it: its file, size and metric. */
export function describeCensus(census: OneOrPairRead): SimulationReport["census"] {
  const { stats, pair, description } = census;
  return {
    file: description.file,
    sha256: description.sha256 as string,
    kind: description.kind,
    documents: stats.n.length,
    results: stats.n.reduce((t, v) => t + v, 0),
    metric: census.metric,
    metricKind: metricKindOf(stats, pair !== null),
    system: census.system,
    pair,
  };
}

/**
 * `ragci simulate` on a census read with readSource (read "one", with the two-stage design's
 * unit column as documentLabel): the plan's studies run on the worker threads, each method's
 * coverage scored against the census value, and the recommendation taken from them.
 *
 * @throws RagciError when a K exceeds the census, or the design does not fit it
 */
export async function simulateCensus(
  census: OneOrPairRead,
  plan: StudyPlan,
  settings: StudyColumnSettings,
  run: StudyColumnsRun & { readonly version: string },
): Promise<SimulationReport> {
  const { stats } = census;
  checkColumnsFit(plan, stats.n.length);
  refuseConstantCensus(stats, census.description.file, census.pair);
  const design = await studyDesign(plan, census.labels ?? null);
  const studies = await runStudyColumns(census, design, plan.sizes, settings, run);
  // Stratified and two-stage studies apply each stage's own fpc; an SRS one only with --fpc.
  const fpcNote =
    design.kind === "srs"
      ? fpcOmittedNote(plan.sizes.columns, stats.n.length, settings.fpc ?? false)
      : null;
  return {
    version: run.version,
    census: describeCensus(census),
    truth: censusTruth(stats),
    level: settings.level,
    studies,
    recommended: studies.map((s) => ({
      micro: recommendFromStudy(s, "micro"),
      macro: recommendFromStudy(s, "macro"),
    })),
    threads: run.threads,
    notes: [
      ...(settings.chunkBootstrap ? [] : [`chunk-bootstrap: ${CHUNK_BOOTSTRAP_SKIPPED}.`]),
      ...(fpcNote === null ? [] : [fpcNote]),
    ],
  };
}
