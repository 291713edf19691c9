import { availableParallelism } from "node:os";
import { type PairedTable, readSource, type Selection } from "../ingest/index.js";
import type { AnalysisEntry } from "../report/analysisReport.js";
import type { CommandIo } from "./io.js";
import { selectionOf } from "./sourceOptions.js";

/** The flags of a --census study (analyze and compare). */
export interface CensusStudyFlags {
  readonly census?: string;
  readonly censusReps?: number;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly population?: number;
}

/** The flags as the simulation's census study settings and run (all cores, a progress line). */
function studyRun(flags: CensusStudyFlags, io: CommandIo) {
  const census = flags.census as string;
  return {
    settings: {
      ...(flags.censusReps !== undefined ? { repetitions: flags.censusReps } : {}),
      replicates: flags.replicates,
      seed: flags.seed,
      level: flags.level,
      population: flags.population ?? null,
    },
    run: {
      census,
      threads: availableParallelism(),
      ...(io.signal ? { signal: io.signal } : {}),
      onProgress: (what: string, fraction: number) =>
        io.progress.update(`census study of ${what}: ${Math.round(100 * fraction)}%`),
    },
  };
}

/**
 * compare --census: the census file's paired differences of each compared pair, and a study of
 * them at the sample's K, keyed by [a, b, metric].
 */
export async function censusDifferenceStudies(
  flags: CensusStudyFlags & { readonly doc?: string; readonly query?: string },
  selection: Selection,
  sample: PairedTable,
  io: CommandIo,
) {
  const { settings, run } = studyRun(flags, io);
  io.progress.update(`reading the census ${run.census}…`);
  const { table } = await readSource(
    { files: [run.census], doc: flags.doc, query: flags.query },
    { ...selection, systems: sample.systems, intersect: false },
    { read: "pairs" },
  );
  const { differenceCensusStudies } = await import("../simulation/censusStudies.js");
  return differenceCensusStudies(sample.differences, table.differences, settings, run);
}

/** What analyze's --census study reads the census with. */
export interface AnalysisCensusFlags extends CensusStudyFlags {
  readonly censusAggregated?: boolean;
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
}

/**
 * analyze --census, first step: the census read (its per-document tables by system × metric),
 * before the sample is analysed, so that each analysis is computed once, with the census's M.
 */
export async function readAnalysisCensus(flags: AnalysisCensusFlags, io: CommandIo) {
  const { settings, run } = studyRun(flags, io);
  io.progress.update(`reading the census ${run.census}…`);
  const { systemColumn, metrics } = selectionOf(flags);
  const [census] = await readSource(
    { files: [run.census], doc: flags.doc, aggregated: flags.censusAggregated },
    { systemColumn, metrics },
    { read: "tables" },
  );
  const groups = census?.table.groups ?? [];
  // Loaded only with --census, as the study itself is.
  const { censusPopulationOf } = await import("../simulation/censusStudies.js");
  return {
    groups,
    settings,
    run,
    /** The M each sample analysis takes from the census (censusPopulationOf). */
    populationOf: (sample: Parameters<typeof censusPopulationOf>[1]) =>
      censusPopulationOf(groups, sample),
  };
}

export type AnalysisCensus = Awaited<ReturnType<typeof readAnalysisCensus>>;

/**
 * analyze --census, second step: for each system × metric, a coverage study on the census's same
 * system × metric at the analysis's K (fpc with the census's M) and the recommendation from it.
 */
export async function analysisCensusStudies(
  entries: readonly AnalysisEntry[],
  census: AnalysisCensus,
): Promise<AnalysisEntry[]> {
  const { analysisCensusStudies } = await import("../simulation/censusStudies.js");
  return analysisCensusStudies(entries, census.groups, census.settings, census.run);
}
