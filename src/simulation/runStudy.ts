import { Worker } from "node:worker_threads";
import { RagciError, type RagciErrorCode } from "../core/errors.js";
import {
  checkStudyOptions,
  joinRepetitions,
  type RepetitionResults,
  runRepetitions,
  type StudyOptions,
} from "../core/simulation/coverageStudy.js";
import { type StudyResult, summarizeStudy } from "../core/simulation/studySummary.js";
import type { DocumentStats } from "../core/types.js";

export interface RunStudyOptions {
  /** Worker threads; 1 runs on the calling thread. The result is the same bytes for any count. */
  readonly threads: number;
  /** Called with the number of repetitions just finished (for a progress bar). */
  readonly onRepetitions?: (count: number) => void;
  /** Aborting stops the workers and rejects with RagciError "interrupted". */
  readonly signal?: AbortSignal;
}

/** Contiguous ranges of repetitions, one per worker: joined in order, they are the study. */
function ranges(repetitions: number, parts: number): [number, number][] {
  const out: [number, number][] = [];
  for (let p = 0; p < parts; p++) {
    const from = Math.floor((p * repetitions) / parts);
    const to = Math.floor(((p + 1) * repetitions) / parts);
    if (to > from) out.push([from, to]);
  }
  return out;
}

function interrupted(): RagciError {
  return new RagciError(
    "interrupted",
    "interrupted: the study was stopped and nothing was written",
  );
}

/** One study at one K, split over worker threads, scored as SPEC §8 says. */
export async function runStudy(
  census: DocumentStats,
  options: StudyOptions,
  run: RunStudyOptions,
): Promise<StudyResult> {
  checkStudyOptions(census, options);
  if (run.signal?.aborted) throw interrupted();
  const threads = Math.max(1, Math.min(run.threads, options.repetitions));
  if (threads === 1) {
    const results = runRepetitions(census, options, 0, options.repetitions, () =>
      run.onRepetitions?.(1),
    );
    return summarizeStudy(census, options, results);
  }
  const workers: Worker[] = [];
  const stopAll = () => {
    for (const w of workers) void w.terminate();
  };
  try {
    const parts = await Promise.all(
      ranges(options.repetitions, threads).map(
        ([from, to]) =>
          new Promise<RepetitionResults>((resolve, reject) => {
            const worker = new Worker(new URL("./studyWorker.js", import.meta.url), {
              workerData: { census, options, from, to },
            });
            workers.push(worker);
            const onAbort = () => reject(interrupted());
            run.signal?.addEventListener("abort", onAbort, { once: true });
            worker.on(
              "message",
              (message: { type: string; repetitions?: number; results?: RepetitionResults }) => {
                if (message.type === "tick") run.onRepetitions?.(message.repetitions as number);
                else if (message.type === "user-error") {
                  const { code, message: text } = message as unknown as {
                    code: RagciErrorCode;
                    message: string;
                  };
                  reject(new RagciError(code, text));
                } else if (message.type === "done") {
                  run.signal?.removeEventListener("abort", onAbort);
                  resolve(message.results as RepetitionResults);
                }
              },
            );
            worker.on("error", (error) => {
              run.signal?.removeEventListener("abort", onAbort);
              reject(error);
            });
            worker.on("exit", (code) => {
              if (code !== 0)
                reject(
                  run.signal?.aborted
                    ? interrupted()
                    : new Error(`study worker exited with code ${code}`),
                );
            });
          }),
      ),
    );
    return summarizeStudy(census, options, joinRepetitions(parts));
  } catch (error) {
    stopAll();
    throw error;
  }
}
