import { parentPort, workerData } from "node:worker_threads";
import { isRagciError } from "../core/errors.js";
import { runRepetitions, type StudyOptions } from "../core/simulation/coverageStudy.js";
import type { DocumentStats } from "../core/types.js";

/** What the main thread sends: the census, the study, and this worker's repetitions. */
export interface StudyWorkerData {
  readonly census: DocumentStats;
  readonly options: StudyOptions;
  readonly from: number;
  readonly to: number;
}

/** Repetitions between two progress messages (a message costs far less than a repetition). */
const TICK = 25;

const { census, options, from, to } = workerData as StudyWorkerData;
let sinceTick = 0;
try {
  const results = runRepetitions(census, options, from, to, () => {
    if (++sinceTick === TICK) {
      parentPort?.postMessage({ type: "tick", repetitions: sinceTick });
      sinceTick = 0;
    }
  });
  if (sinceTick > 0) parentPort?.postMessage({ type: "tick", repetitions: sinceTick });
  parentPort?.postMessage({ type: "done", results }, [
    results.lower.buffer,
    results.upper.buffer,
    results.df.buffer,
    results.degenerate.buffer,
    results.estimates.buffer,
  ] as ArrayBuffer[]);
} catch (error) {
  // A user error (RagciError) crosses the thread boundary as its code and message, so the CLI
  // reports it as one line rather than as an internal error.
  if (!isRagciError(error)) throw error;
  parentPort?.postMessage({ type: "user-error", code: error.code, message: error.message });
}
