import { availableParallelism } from "node:os";
import { type StudyDesign, studyColumns } from "../core/simulation/studyColumns.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { OneOrPairRead } from "../ingest/index.js";
import { runStudy } from "../simulation/runStudy.js";
import type { CommandIo } from "./io.js";
import type { StudySizes } from "./simulationDesign.js";

/** The flags of simulate that every repetition of every column shares. */
export interface StudyFlags {
  readonly replicates: number;
  readonly seed: number;
  readonly level: number;
  readonly fpc?: boolean;
  readonly chunkBootstrap?: boolean;
  /** Worker threads; default the machine's cores. */
  readonly threads?: number;
}

/**
 * simulate's table: every column's study planned by core (strata or units built and checked
 * before any work), then run one after the other on the worker threads, with one progress line
 * and its ETA.
 */
export async function runStudyColumns(
  census: Pick<OneOrPairRead, "stats" | "pair">,
  design: StudyDesign,
  sizes: StudySizes,
  flags: StudyFlags,
  io: CommandIo,
): Promise<{ readonly studies: StudyResult[]; readonly threads: number }> {
  const { columns, perColumn } = sizes;
  const stats = census.stats;
  const threads = flags.threads ?? availableParallelism();
  const plans = studyColumns(stats, {
    ...sizes,
    design,
    replicates: flags.replicates,
    seed: flags.seed,
    level: flags.level,
    fpc: flags.fpc ?? false,
    chunkBootstrap: flags.chunkBootstrap ?? false,
    differences: census.pair !== null,
  });
  const total = plans.reduce((t, p) => t + p.repetitions, 0);
  const started = Date.now();
  let done = 0;
  const studies: StudyResult[] = [];
  for (const [i, plan] of plans.entries()) {
    studies.push(
      await runStudy(stats, plan, {
        threads,
        ...(io.signal ? { signal: io.signal } : {}),
        onRepetitions: (count) => {
          done += count;
          const elapsed = (Date.now() - started) / 1000;
          const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
          io.progress.update(
            `${perColumn} = ${columns[i]}: ${Math.round((100 * done) / total)}% of ${total} repetitions · ${elapsed.toFixed(0)} s elapsed, about ${eta.toFixed(0)} s left`,
          );
        },
      }),
    );
  }
  return { studies, threads };
}
