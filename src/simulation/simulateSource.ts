import { refuseCensusOptionsInFacetStudy } from "../core/simulation/facetStudyOptions.js";
import { type StudyPlanOptions, studyPlan } from "../core/simulation/studyPlan.js";
import {
  hasFacets,
  type OneOrPairRead,
  type ReadProgress,
  readSource,
  refuseAggregateNamedLabel,
  type Selection,
  type Source,
} from "../ingest/index.js";
import type { FacetSimulationReport } from "../report/simulationFacetsReport.js";
import type { SimulationReport } from "../report/simulationReport.js";
import type { StudyColumnSettings } from "./runStudyColumns.js";
import { simulateCensus } from "./simulateCensus.js";
import { simulateFacetsOfPilot } from "./simulateFacets.js";

/** What simulateSource is asked for: the study's design and columns, and how each is scored. */
export interface SimulateSourceOptions extends StudyPlanOptions, StudyColumnSettings {}

/** How a study runs: worker threads, a stop signal, progress, and the version it names. */
export interface SimulateSourceRun {
  /** The ragci version the report names. */
  readonly version: string;
  /** Worker threads (the calling one included); the result is the same bytes for any count. */
  readonly threads: number;
  /** Aborting stops the workers and rejects with RagciError "interrupted". */
  readonly signal?: AbortSignal;
  /** The reading's status and DuckDB's progress, as analyzeSource reports them. */
  readonly progress?: ReadProgress;
  /** Called once the census is read, as the studies start (a progress timer's start). */
  readonly onStudyStart?: () => void;
  /** Repetitions done of column `column` (K or m), of `total`. */
  readonly onProgress?: (column: number, done: number, total: number) => void;
}

/**
 * simulate: the census read from the source (one system × metric, or a pair's per-query
 * differences), each column's coverage study run (SRS, size strata or two-stage, as planned by
 * core before any work), and the report with its recommendations; also the census read, for a
 * page or a file. A source with trial, judge or variant columns is a faceted pilot: the study
 * draws evaluations from its components instead (one number of repetitions for every K; the
 * census study's options are refused), and the report is the faceted one.
 *
 * @throws RagciError for unreadable input, or a plan the census cannot hold
 *
 * @example // `ragci simulate examples/covidqa-retrieval.csv --system system=bm25 --metric hit5
 *   // --k 10 --reps 200 --replicates 0`: the census value, and the interval it recommends
 *   await simulateSource({ files: ["examples/covidqa-retrieval.csv"], doc: "doc_id" }, { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] }, { k: [10], reps: [200], replicates: 0, seed: 1, level: 0.95 }, { version: "example", threads: 1 })
 *     .then(({ report }) => [report.truth.micro, report.recommended[0].micro.method])
 *   // => [0.73116, "logit-cv3"]
 */
export async function simulateSource(
  source: Source,
  selection: Selection,
  options: SimulateSourceOptions,
  run: SimulateSourceRun,
): Promise<{
  readonly report: SimulationReport | FacetSimulationReport;
  readonly census: OneOrPairRead;
}> {
  // A faceted pilot (trial, judge or variant columns): evaluations drawn from its components.
  if (hasFacets(source)) {
    refuseCensusOptionsInFacetStudy(options);
    const pilot = await readSource(source, selection, {
      read: "one",
      usedBy: "simulate",
      pairedUse: "a paired study",
      ...(run.progress ? { progress: run.progress } : {}),
    });
    run.onStudyStart?.();
    const report = await simulateFacetsOfPilot(
      pilot,
      {
        documents: options.k,
        reps: options.reps?.[0],
        seed: options.seed,
        level: options.level,
        ...(run.signal ? { signal: run.signal } : {}),
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
      },
      run.version,
    );
    return { report, census: pilot };
  }
  return simulateCensusSource(source, selection, options, run);
}

/**
 * simulateSource on a census (no facets): the study columns as planned, and the census report.
 *
 * @throws RagciError for unreadable input, or a plan the census cannot hold
 */
export async function simulateCensusSource(
  source: Source,
  selection: Selection,
  options: SimulateSourceOptions,
  run: SimulateSourceRun,
): Promise<{ readonly report: SimulationReport; readonly census: OneOrPairRead }> {
  const plan = studyPlan(options);
  const twoStage = plan.design.kind === "two-stage" ? plan.design : null;
  // The unit column is the psu option's, not a documentLabel of the caller's: refused here
  // under its own name.
  refuseAggregateNamedLabel(twoStage?.unitColumn, "psu");
  const census = await readSource(source, selection, {
    read: "one",
    usedBy: "simulate",
    pairedUse: "a paired study",
    documentLabel: twoStage?.unitColumn ?? null,
    ...(run.progress ? { progress: run.progress } : {}),
  });
  run.onStudyStart?.();
  const report = await simulateCensus(census, plan, options, {
    threads: run.threads,
    version: run.version,
    ...(run.signal ? { signal: run.signal } : {}),
    ...(run.onProgress ? { onProgress: run.onProgress } : {}),
  });
  return { report, census };
}
