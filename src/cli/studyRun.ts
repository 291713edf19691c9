import type { SimulateSourceRun } from "../simulation/simulateSource.js";
import type { CommandIo } from "./io.js";
import { repetitionsProgress } from "./progress.js";
import { readingProgress } from "./readingProgress.js";

/**
 * How simulate runs a study from the command line: the reading's progress, Ctrl-C, and a status
 * line per piece of repetitions, timed from the study's start (after the reading). `place` names
 * the study a report comes from (its column) and the fraction of the whole run done.
 */
export function studyRun(
  io: CommandIo,
  threads: number,
  place: (column: number, done: number, total: number) => { label: string; fraction: number },
): SimulateSourceRun {
  let started = Date.now();
  return {
    version: io.version,
    threads,
    progress: readingProgress(io),
    ...(io.signal ? { signal: io.signal } : {}),
    onStudyStart: () => {
      started = Date.now();
    },
    onProgress: (column, done, total) => {
      const { label, fraction } = place(column, done, total);
      io.progress.update(`${label}: ${repetitionsProgress(done, total, fraction, started)}`);
    },
  };
}
