import { type StudyDesign, studyColumns } from "../core/simulation/studyColumns.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { DocumentStats } from "../core/types.js";
import { runStudy } from "./runStudy.js";

/** What every repetition of every column shares (simulate's flags). */
export interface StudyColumnSettings {
  /** Bootstrap replicates B per repetition (0: no bootstrap intervals). */
  readonly replicates: number;
  /** numpy-exact streams: repetition i draws from SeedSequence(seed, spawn_key=(i, 0)). */
  readonly seed: number;
  /** The intervals' confidence level. */
  readonly level: number;
  /** Apply the fpc 1 − K/M to the SRS intervals (the census is the population). */
  readonly fpc?: boolean;
  /** Score the chunk bootstrap too (a contrast; skipped by default for its cost). */
  readonly chunkBootstrap?: boolean;
}

/** How the columns run: threads, Ctrl-C, and the repetitions done so far of all columns. */
export interface StudyColumnsRun {
  readonly threads: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (column: number, done: number, total: number) => void;
}

/**
 * simulate's table: every column's study planned by core (strata or units built and checked
 * before any work), then run one after the other on the worker threads.
 */
export async function runStudyColumns(
  census: { readonly stats: DocumentStats; readonly pair: unknown },
  design: StudyDesign,
  sizes: { readonly columns: readonly number[]; readonly repetitions: readonly number[] },
  settings: StudyColumnSettings,
  run: StudyColumnsRun,
): Promise<StudyResult[]> {
  const stats = census.stats;
  const plans = studyColumns(stats, {
    columns: [...sizes.columns],
    repetitions: [...sizes.repetitions],
    design,
    replicates: settings.replicates,
    seed: settings.seed,
    level: settings.level,
    fpc: settings.fpc ?? false,
    chunkBootstrap: settings.chunkBootstrap ?? false,
    differences: census.pair !== null,
  });
  const total = plans.reduce((t, p) => t + p.repetitions, 0);
  let done = 0;
  const studies: StudyResult[] = [];
  for (const [i, plan] of plans.entries()) {
    studies.push(
      await runStudy(stats, plan, {
        threads: run.threads,
        ...(run.signal ? { signal: run.signal } : {}),
        onRepetitions: (count) => {
          done += count;
          run.onProgress?.(i, done, total);
        },
      }),
    );
  }
  return studies;
}
