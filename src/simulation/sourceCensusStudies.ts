import { availableParallelism } from "node:os";
import { type PairedTable, readSource, type Selection } from "../ingest/index.js";
import type { AnalysisEntry } from "../report/analysisReport.js";

/** A census study at the sample's K: the census file, how to read it, and the study's settings. */
export interface CensusStudyRequest {
  /** The census file: every document of the population. */
  readonly census: string;
  /** Repetitions; default core's CENSUS_STUDY_REPETITIONS. */
  readonly censusReps?: number;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly population?: number;
  /** The census's document and query columns (as the sample's). */
  readonly doc?: string;
  readonly query?: string;
  /** The census is one row per document: doc, n, s[, ss]. */
  readonly censusAggregated?: boolean;
}

/** What a study tells while it runs, and what stops it. */
export interface StudyIo {
  readonly signal?: AbortSignal;
  /** One status line: what is read or studied, and how far. */
  readonly status?: (message: string) => void;
}

/** The request as the census study's settings and run (all cores, a status line). */
function studyRun(request: CensusStudyRequest, io: StudyIo) {
  const { census } = request;
  return {
    settings: {
      ...(request.censusReps !== undefined ? { repetitions: request.censusReps } : {}),
      replicates: request.replicates,
      seed: request.seed,
      level: request.level,
      population: request.population ?? null,
    },
    run: {
      census,
      threads: availableParallelism(),
      ...(io.signal ? { signal: io.signal } : {}),
      onProgress: (what: string, fraction: number) =>
        io.status?.(`census study of ${what}: ${Math.round(100 * fraction)}%`),
    },
  };
}

/**
 * A comparison's census study: the census file's paired differences of each compared pair, and
 * a study of them at the sample's K, keyed by [a, b, metric].
 */
export async function censusDifferenceStudiesOfFile(
  request: CensusStudyRequest,
  selection: Selection,
  sample: PairedTable,
  io: StudyIo,
) {
  const { settings, run } = studyRun(request, io);
  io.status?.(`reading the census ${run.census}…`);
  const { table } = await readSource(
    { files: [run.census], doc: request.doc, query: request.query },
    { ...selection, systems: sample.systems, intersect: false },
    // A pair's census pairs the systems on each query: only per-query results will do.
    { read: "pairs", aggregatedOption: null },
  );
  const { differenceCensusStudies } = await import("./censusStudies.js");
  return differenceCensusStudies(sample.differences, table.differences, settings, run);
}

/**
 * An analysis's census study, first step: the census read (its per-document tables by system ×
 * metric), before the sample is analysed, so that each analysis is computed once, with the
 * census's M.
 */
export async function readAnalysisCensus(
  request: CensusStudyRequest,
  selection: Pick<Selection, "systemColumn" | "metrics">,
  io: StudyIo,
) {
  const { settings, run } = studyRun(request, io);
  io.status?.(`reading the census ${run.census}…`);
  const { systemColumn, metrics } = selection;
  const [census] = await readSource(
    { files: [run.census], doc: request.doc, aggregated: request.censusAggregated },
    { systemColumn, metrics },
    { read: "tables", aggregatedOption: "censusAggregated" },
  );
  const groups = census?.table.groups ?? [];
  // Loaded only with a census, as the study itself is.
  const { censusPopulationOf, refuseSamplesOutsideCensus } = await import("./censusStudies.js");
  return {
    groups,
    settings,
    run,
    /** The M each sample analysis takes from the census (censusPopulationOf). */
    populationOf: (sample: Parameters<typeof censusPopulationOf>[1]) =>
      censusPopulationOf(groups, sample),
    /** Refuses samples with documents the census lacks (refuseSamplesOutsideCensus). */
    refuseOutside: (samples: Parameters<typeof refuseSamplesOutsideCensus>[1]) =>
      refuseSamplesOutsideCensus(groups, samples, run.census),
  };
}

export type AnalysisCensus = Awaited<ReturnType<typeof readAnalysisCensus>>;

/**
 * An analysis's census study, second step: for each system × metric, a coverage study on the
 * census's same system × metric at the analysis's K (fpc with the census's M) and the
 * recommendation from it.
 */
export async function analysisCensusStudiesOfFile(
  entries: readonly AnalysisEntry[],
  census: AnalysisCensus,
): Promise<AnalysisEntry[]> {
  const { analysisCensusStudies } = await import("./censusStudies.js");
  return analysisCensusStudies(entries, census.groups, census.settings, census.run);
}
