import type { Analysis } from "../core/analyze.js";
import { optionRef, RagciError } from "../core/errors.js";
import { applyCensusStudy } from "../core/simulation/applyCensusStudy.js";
import { censusPopulation } from "../core/simulation/censusPopulation.js";
import { censusStudyOptions } from "../core/simulation/censusStudyOptions.js";
import { refuseConstantCensus, refuseDegenerateStudy } from "../core/simulation/degenerateStudy.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { DocumentStats } from "../core/types.js";
import { type RunStudyOptions, runStudy } from "./runStudy.js";
import { refuseSampleOutsideCensus } from "./sampleInCensus.js";

/** How a census study at a sample's K is run: core's census study settings. */
export interface CensusStudySettings {
  /** Repetitions; default core's CENSUS_STUDY_REPETITIONS. */
  readonly repetitions?: number;
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  /** The population's M, when the sample's intervals use the fpc. */
  readonly population: number | null;
}

/** Where the census came from (in messages and reports), and how to run its studies. */
export interface CensusStudyRun extends Omit<RunStudyOptions, "onRepetitions"> {
  /** The census file (or database source) as messages and reports name it. */
  readonly census: string;
  /** Told what is studied and how far (0–1) while a study runs. */
  readonly onProgress?: (what: string, fraction: number) => void;
}

/**
 * A coverage study on the census at the sample's K (SRS; fpc with the census's M, which a
 * census knows), with the census's own stats (of one system, or of paired differences).
 *
 * @throws RagciError when the census has no more documents than the sample (a study at K = M
 *   cannot miss), or a given population disagrees with it
 * @example // the census of runStudy's example at K = 3, 1,000 repetitions (every sample: 0.85)
 *   await studyAtSampleSize(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [2, 2, 3, 10, 12, 20], s: [1, 1, 3, 3, 4, 2] }), 3, { replicates: 0, seed: 1, level: 0.8, population: null }, { census: "census.csv", threads: 1 }, { label: "hit" })
 *     .then((study) => [study.reps, study.k, study.fpc, study.methods["macro/t"].coverage])
 *   // => [1000, 3, true, 0.8450]
 */
export async function studyAtSampleSize(
  census: DocumentStats,
  documents: number,
  settings: CensusStudySettings,
  run: CensusStudyRun,
  what: { readonly label: string; readonly differences?: boolean },
): Promise<StudyResult> {
  if (documents > census.ids.length) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("census")} ${run.census}: it has ${census.ids.length} documents, fewer than the sample's ${documents}; give the census of the whole population`,
      { file: run.census, option: "census" },
    );
  }
  refuseDegenerateStudy(
    documents,
    census.ids.length,
    `${optionRef("census")} ${run.census}`,
    run.census,
  );
  refuseConstantCensus(census, `${optionRef("census")} ${run.census}`, null, what.differences);
  const population = censusPopulation(census.ids.length, settings.population, run.census);
  const options = censusStudyOptions({
    documents,
    ...(settings.repetitions !== undefined ? { repetitions: settings.repetitions } : {}),
    replicates: settings.replicates,
    seed: settings.seed,
    level: settings.level,
    population,
    ...(what.differences ? { differences: true } : {}),
  });
  let done = 0;
  return runStudy(census, options, {
    threads: run.threads,
    ...(run.signal ? { signal: run.signal } : {}),
    onRepetitions: (count) => {
      done += count;
      run.onProgress?.(what.label, done / options.repetitions);
    },
  });
}

/** A census's per-document table by system × metric, as the census study reads it. */
interface CensusGroup {
  readonly system: string | null;
  readonly metric: string;
  readonly stats: DocumentStats;
}

/** The census's table of a sample's system × metric (any system when the sample has none). */
function censusGroupOf<G extends CensusGroup>(
  census: readonly G[],
  sample: { readonly system: string | null; readonly metric: string },
): G | undefined {
  return census.find(
    (g) => g.metric === sample.metric && (sample.system === null || g.system === sample.system),
  );
}

/**
 * The M a sample's analysis takes from the census (its documents), read before the sample is
 * analysed so that each analysis is computed once with it; null when the census lacks the
 * system × metric or has no more documents than the sample's K, which the study then refuses
 * saying so (analysisCensusStudies).
 */
export function censusPopulationOf(
  census: readonly CensusGroup[],
  sample: {
    readonly system: string | null;
    readonly metric: string;
    readonly stats: DocumentStats;
  },
): number | null {
  const M = censusGroupOf(census, sample)?.stats.ids.length ?? null;
  return M !== null && M > sample.stats.ids.length ? M : null;
}

/**
 * Refuses samples (one per system × metric) with documents the census's same system × metric
 * lacks; one the census lacks altogether is refused by the study (analysisCensusStudies).
 */
export function refuseSamplesOutsideCensus(
  census: readonly CensusGroup[],
  samples: readonly {
    readonly system: string | null;
    readonly metric: string;
    readonly stats: DocumentStats;
  }[],
  file: string,
): void {
  for (const sample of samples) {
    const group = censusGroupOf(census, sample);
    if (!group) continue;
    const what = sample.system === null ? null : `system ${sample.system}, metric ${sample.metric}`;
    refuseSampleOutsideCensus(sample.stats.ids, group.stats.ids, file, what);
  }
}

/** One system × metric of a sample (an analysis), as analyze reports it. */
interface SampleEntry {
  readonly system: string | null;
  readonly metric: string;
  readonly analysis: Analysis;
}

/**
 * For each system × metric of a sample, a coverage study on the same system × metric of the
 * census at the sample's K, and the recommendation taken from it. The census gives M: each
 * analysis should have been computed with it (the caller reads the census first), so that its
 * intervals apply the fpc the study applied.
 *
 * @throws RagciError when the census lacks a system × metric of the sample
 */
export async function analysisCensusStudies<E extends SampleEntry>(
  entries: readonly E[],
  census: readonly {
    readonly system: string | null;
    readonly metric: string;
    readonly stats: DocumentStats;
  }[],
  settings: CensusStudySettings,
  run: CensusStudyRun,
): Promise<
  (E & { readonly censusStudy: { readonly file: string; readonly study: StudyResult } })[]
> {
  const file = run.census;
  const out = [];
  for (const entry of entries) {
    const group = censusGroupOf(census, entry);
    if (!group) {
      throw new RagciError(
        "missing-column",
        `${optionRef("census")} ${file}: no ${entry.system === null ? "" : `system ${entry.system}, `}metric ${entry.metric} in it; the census must hold the same metric${entry.system === null ? "" : " and systems"} as the sample`,
        { file, option: "census" },
      );
    }
    const label = entry.system === null ? entry.metric : `${entry.system}/${entry.metric}`;
    const study = await studyAtSampleSize(group.stats, entry.analysis.documents, settings, run, {
      label,
    });
    out.push({
      ...entry,
      analysis: applyCensusStudy(entry.analysis, study, file),
      censusStudy: { file, study },
    });
  }
  return out;
}

/** One pair's per-document differences b − a of one metric. */
interface Difference {
  readonly a: string;
  readonly b: string;
  readonly metric: string;
  readonly stats: DocumentStats;
}

/** A pair's census study and the census's M, which the sample's intervals then use. */
export interface DifferenceCensusStudy {
  readonly study: StudyResult;
  readonly population: number;
}

/**
 * For each compared pair × metric of a sample, a study of the census's differences of that
 * pair at the sample's K, keyed by JSON [a, b, metric].
 */
export async function differenceCensusStudies(
  sample: readonly Difference[],
  census: readonly Difference[],
  settings: CensusStudySettings,
  run: CensusStudyRun,
): Promise<Map<string, DifferenceCensusStudy>> {
  const studies = new Map<string, DifferenceCensusStudy>();
  const wholeOf = (d: Difference) =>
    census.find((c) => c.a === d.a && c.b === d.b && c.metric === d.metric);
  // Every pair's documents checked before any study runs.
  for (const d of sample) {
    const whole = wholeOf(d);
    if (whole)
      refuseSampleOutsideCensus(
        d.stats.ids,
        whole.stats.ids,
        run.census,
        `${d.b} − ${d.a}, metric ${d.metric}`,
      );
  }
  for (const d of sample) {
    const whole = wholeOf(d);
    if (!whole) throw new Error(`internal: no census difference for ${d.b} - ${d.a}`);
    const study = await studyAtSampleSize(whole.stats, d.stats.ids.length, settings, run, {
      label: `${d.b} − ${d.a} (${d.metric})`,
      differences: true,
    });
    studies.set(JSON.stringify([d.a, d.b, d.metric]), {
      study,
      population: whole.stats.ids.length,
    });
  }
  return studies;
}
