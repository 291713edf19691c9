import { setMaxListeners } from "node:events";
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
import type { StudyWorkerReply, StudyWorkerRequest } from "./studyWorker.js";
import { acquireStudyWorkers, releaseStudyWorkers, stopStudyWorkers } from "./studyWorkers.js";

export interface RunStudyOptions {
  /** Worker threads; 1 runs on the calling thread. The result is the same bytes for any count. */
  readonly threads: number;
  /** Called with the number of repetitions just finished (for a progress bar). */
  readonly onRepetitions?: (count: number) => void;
  /** Aborting stops the workers and rejects with RagciError "interrupted". */
  readonly signal?: AbortSignal;
}

/**
 * Repetitions per piece of work handed out: small enough that the threads finish together,
 * large enough that a message costs nothing next to it (a repetition takes about 0.1 ms).
 */
function pieceSize(repetitions: number, threads: number): number {
  return Math.max(1, Math.min(100, Math.ceil(repetitions / (threads * 10))));
}

function interrupted(): RagciError {
  return new RagciError(
    "interrupted",
    "interrupted: the study was stopped and nothing was written",
  );
}

/** How long this thread's own pieces of repetitions aim to take, in milliseconds. */
const MAIN_PIECE_MS = 100;

/** Lets pending messages (workers' results, progress, Ctrl-C) be handled between pieces. */
const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One study at one K, scored as SPEC §8 says, on `threads` threads: this one and threads − 1
 * workers, each taking the next piece of repetitions when it is done with one. A repetition's
 * result depends only on its index (its own streams), and the pieces are joined in order, so
 * the result is the same bytes for any number of threads.
 *
 * @example // K = 3 of 6 documents: 17 of the 20 possible samples' 80% t intervals hold the census's
 *   // macro 0.4556 (R, every sample): 0.85, which 2,000 repetitions estimate within one mcse
 *   await runStudy(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [2, 2, 3, 10, 12, 20], s: [1, 1, 3, 3, 4, 2] }), { documents: 3, repetitions: 2000, replicates: 0, seed: 1, level: 0.8, fpc: true }, { threads: 1 })
 *     .then((study) => study.methods["macro/t"])
 *   // => { coverage: 0.8435, mcse: 0.0081, missBelow: 0.1565, missAbove: 0 }
 */
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
  const size = pieceSize(options.repetitions, threads);
  let next = 0;
  const take = (limit = size): [number, number] | null => {
    if (next >= options.repetitions) return null;
    const from = next;
    next = Math.min(options.repetitions, next + limit);
    return [from, next];
  };
  const parts: RepetitionResults[] = [];
  const workers = acquireStudyWorkers(threads - 1);
  // One abort listener per worker: more than the 10 Node's leak warning expects.
  if (run.signal) setMaxListeners(Math.max(10, workers.length + 1), run.signal);
  let failed = false;
  try {
    const byWorkers = workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          const done = () => {
            run.signal?.removeEventListener("abort", onAbort);
            worker.off("message", onMessage).off("error", fail).off("exit", onExit);
          };
          const fail = (error: unknown) => {
            failed = true;
            done();
            reject(error);
          };
          const onAbort = () => fail(interrupted());
          run.signal?.addEventListener("abort", onAbort, { once: true });
          // Two pieces in flight per worker: it starts the next one as soon as it is done with
          // one, without waiting for this thread, which hands out work only between its own pieces.
          let inFlight = 0;
          const give = () => {
            const range = failed ? null : take();
            if (range === null) {
              if (inFlight === 0) {
                done();
                resolve();
              }
              return;
            }
            const request: StudyWorkerRequest = { type: "range", from: range[0], to: range[1] };
            worker.postMessage(request);
            inFlight++;
          };
          const onMessage = (message: StudyWorkerReply) => {
            if (message.type === "tick") run.onRepetitions?.(message.repetitions);
            else if (message.type === "user-error")
              fail(new RagciError(message.code as RagciErrorCode, message.message));
            else {
              inFlight--;
              parts.push(message.results);
              give();
            }
          };
          const onExit = (code: number) => {
            fail(
              run.signal?.aborted
                ? interrupted()
                : new Error(`study worker exited with code ${code} during a study`),
            );
          };
          worker.on("message", onMessage).on("error", fail).on("exit", onExit);
          const study: StudyWorkerRequest = { type: "study", census, options };
          worker.postMessage(study);
          give();
          give();
        }),
    );
    // Awaited below, after this thread's share; handled now so that a worker's failure while
    // this thread computes is not an unhandled rejection.
    const workersDone = Promise.all(byWorkers);
    workersDone.catch(() => {});
    // This thread works too, a piece at a time, letting the workers' messages in between. Its
    // pieces are kept near MAIN_PIECE_MS long (from one repetition, doubled or halved as they
    // run): Ctrl-C is seen only between them, and a piece of 100 slow repetitions (K = 200,
    // B = 9999, the chunk bootstrap) once kept it waiting for a minute.
    let mine = 1;
    for (let range = take(mine); range !== null && !failed; range = take(mine)) {
      if (run.signal?.aborted) throw interrupted();
      const started = performance.now();
      parts.push(runRepetitions(census, options, range[0], range[1], () => run.onRepetitions?.(1)));
      const took = performance.now() - started;
      if (took < MAIN_PIECE_MS / 2) mine = Math.min(size, mine * 2);
      else if (took > MAIN_PIECE_MS * 2) mine = Math.max(1, Math.floor(mine / 2));
      await yieldToEvents();
    }
    await workersDone;
    // A Ctrl-C that arrived during the last piece is handled in this turn of the event loop.
    await yieldToEvents();
    if (run.signal?.aborted) throw interrupted();
  } catch (error) {
    failed = true;
    stopStudyWorkers(workers);
    throw error;
  }
  releaseStudyWorkers(workers);
  return summarizeStudy(census, options, joinRepetitions(parts));
}
