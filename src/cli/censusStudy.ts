import { availableParallelism } from "node:os";
import type { StudyOptions } from "../core/simulation/coverageStudy.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { DocumentStats } from "../core/types.js";
import type { CommandIo } from "./io.js";

/** Runs a --census study on all cores, with a progress line naming what is studied. */
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
