import type { StudyOptions } from "../core/simulation/coverageStudy.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { DocumentStats } from "../core/types.js";
import { runStudy } from "../simulation/runStudy.js";
import type { CommandIo } from "./io.js";

/** Runs the columns' studies one after the other, with one progress line and its ETA. */
export async function runStudyColumns(
  stats: DocumentStats,
  plans: readonly StudyOptions[],
  how: {
    readonly columns: readonly number[];
    readonly perColumn: string;
    readonly threads: number;
  },
  io: CommandIo,
): Promise<StudyResult[]> {
  const { columns, perColumn, threads } = how;
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
  return studies;
}
