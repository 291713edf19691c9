import { availableParallelism } from "node:os";
import type { Analysis } from "../core/analyze.js";
import { RagciError } from "../core/errors.js";
import { censusPopulation } from "../core/simulation/censusPopulation.js";
import { censusStudyOptions } from "../core/simulation/censusStudyOptions.js";
import type { StudyOptions } from "../core/simulation/coverageStudy.js";
import { refuseDegenerateStudy } from "../core/simulation/degenerateStudy.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { DocumentStats } from "../core/types.js";
import { readAggregates } from "../ingest/readAggregates.js";
import { type PairedTable, readPairedResults } from "../ingest/readPairedResults.js";
import { readResults } from "../ingest/readResults.js";
import type { AnalysisEntry } from "../report/analysisReport.js";
import type { CommandIo } from "./io.js";
import { parseSystemOption } from "./systemFilter.js";
import { systemMetricLabel } from "./systemMetricLabel.js";

/** The flags of a --census study (analyze and compare). */
export interface CensusStudyFlags {
  readonly census?: string;
  readonly censusReps?: number;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly population?: number;
}

/** Runs a study on all cores, with a progress line naming what is studied. */
export async function runCensusStudy(
  census: DocumentStats,
  options: StudyOptions,
  io: CommandIo,
  what: string,
): Promise<StudyResult> {
  const { runStudy } = await import("../simulation/runStudy.js");
  let done = 0;
  return runStudy(census, options, {
    threads: availableParallelism(),
    ...(io.signal ? { signal: io.signal } : {}),
    onRepetitions: (count) => {
      done += count;
      io.progress.update(
        `census study of ${what}: ${Math.round((100 * done) / options.repetitions)}%`,
      );
    },
  });
}

/**
 * --census: the coverage study on the census at the sample's K (SRS; fpc with the census's M),
 * with the census's own stats (of one system, or of the paired differences).
 *
 * @throws RagciError when the census has fewer documents than the sample
 */
export async function studyAtSampleSize(
  census: DocumentStats,
  documents: number,
  flags: CensusStudyFlags,
  io: CommandIo,
  what: { readonly label: string; readonly differences?: boolean },
): Promise<StudyResult> {
  const file = flags.census as string;
  if (documents > census.ids.length) {
    throw new RagciError(
      "invalid-option",
      `--census ${file}: it has ${census.ids.length} documents, fewer than the sample's ${documents}; give the census of the whole population`,
      { file },
    );
  }
  refuseDegenerateStudy(documents, census.ids.length, `--census ${file}`, file);
  const population = censusPopulation(census.ids.length, flags.population ?? null, file);
  const options = censusStudyOptions({
    documents,
    ...(flags.censusReps !== undefined ? { repetitions: flags.censusReps } : {}),
    replicates: flags.replicates,
    seed: flags.seed,
    level: flags.level,
    population,
    ...(what.differences ? { differences: true } : {}),
  });
  return runCensusStudy(census, options, io, what.label);
}

/**
 * compare --census: the paired differences of each compared pair in the census, and a study of
 * them at the sample's K, keyed by [a, b, metric].
 */
export async function censusDifferenceStudies(
  flags: CensusStudyFlags & {
    readonly doc?: string;
    readonly query?: string;
    readonly metric?: readonly string[];
  },
  systemColumn: string | null,
  sample: PairedTable,
  pairs: (systems: readonly string[]) => (readonly [string, string])[],
  io: CommandIo,
): Promise<Map<string, { readonly study: StudyResult; readonly population: number }>> {
  const file = flags.census as string;
  io.progress.update(`reading the census ${file}…`);
  const census = await readPairedResults({
    inputs: [{ path: file, displayName: file }],
    format: null,
    doc: flags.doc ?? null,
    query: flags.query ?? null,
    system: systemColumn,
    onlySystems: sample.systems,
    metrics: flags.metric ?? [],
    pairs,
  });
  const studies = new Map<string, { readonly study: StudyResult; readonly population: number }>();
  for (const d of sample.differences) {
    const whole = census.differences.find(
      (c) => c.a === d.a && c.b === d.b && c.metric === d.metric,
    );
    if (!whole) throw new Error(`internal: no census difference for ${d.b} - ${d.a}`);
    const study = await studyAtSampleSize(whole.stats, d.stats.ids.length, flags, io, {
      label: `${d.b} − ${d.a} (${d.metric})`,
      differences: true,
    });
    const population = whole.stats.ids.length;
    studies.set(JSON.stringify([d.a, d.b, d.metric]), { study, population });
  }
  return studies;
}

/** What analyze's --census study reads the census with. */
export interface AnalysisCensusFlags extends CensusStudyFlags {
  readonly census?: string;
  readonly censusAggregated?: boolean;
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
}

/**
 * --census: for each system × metric, a coverage study on the census at the analysis's K (SRS,
 * fpc with the census's M), the analysis redone with that M (`withPopulation`) unless
 * --population gave it, and the recommendation taken from the study.
 */
export async function analysisCensusStudies(
  entries: readonly AnalysisEntry[],
  options: AnalysisCensusFlags,
  io: CommandIo,
  withPopulation: (entry: AnalysisEntry, index: number, population: number) => Analysis,
): Promise<AnalysisEntry[]> {
  const file = options.census as string;
  const systemOption = parseSystemOption(options.system);
  const common = {
    file,
    format: null,
    doc: options.doc ?? null,
    metrics: options.metric ?? null,
    system: systemOption?.column ?? null,
  };
  io.progress.update(`reading the census ${file}…`);
  const census = options.censusAggregated
    ? await readAggregates(common)
    : await readResults(common);
  const { applyCensusStudy } = await import("../core/simulation/applyCensusStudy.js");
  const out: AnalysisEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const group = census.groups.find(
      (g) => g.metric === entry.metric && (entry.system === null || g.system === entry.system),
    );
    if (!group) {
      throw new RagciError(
        "missing-column",
        `--census ${file}: no ${entry.system === null ? "" : `system ${entry.system}, `}metric ${entry.metric} in it; the census must hold the same metric${entry.system === null ? "" : " and systems"} as the sample`,
        { file },
      );
    }
    const study = await studyAtSampleSize(group.stats, entry.analysis.documents, options, io, {
      label: systemMetricLabel(entry),
    });
    // The census gives M: the intervals apply its fpc, as the study did.
    const analysis =
      options.population === undefined
        ? withPopulation(entry, index, group.stats.ids.length)
        : entry.analysis;
    out.push({
      ...entry,
      analysis: applyCensusStudy(analysis, study, file),
      censusStudy: { file, study },
    });
  }
  return out;
}
