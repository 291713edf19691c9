import { parentPort } from "node:worker_threads";
import { documentStats } from "../core/aggregate/documentStats.js";
import { isRagciError } from "../core/errors.js";
import {
  type RepetitionResults,
  runRepetitions,
  type StudyOptions,
} from "../core/simulation/coverageStudy.js";
import type { DocumentStats } from "../core/types.js";

/** What the main thread sends: a study (census and options), then ranges of its repetitions. */
export type StudyWorkerRequest =
  | { readonly type: "study"; readonly census: DocumentStats; readonly options: StudyOptions }
  | { readonly type: "range"; readonly from: number; readonly to: number };

/** What a worker answers: progress, a finished range, or a user error (code and message). */
export type StudyWorkerReply =
  | { readonly type: "tick"; readonly repetitions: number }
  | { readonly type: "range-done"; readonly results: RepetitionResults }
  | { readonly type: "user-error"; readonly code: string; readonly message: string };

/** Repetitions between two progress messages (a message costs far less than a repetition). */
const TICK = 25;

let study: { census: DocumentStats; options: StudyOptions } | null = null;

/**
 * Until its first study arrives (the main thread is still reading the census), a worker runs
 * a few repetitions of a small made-up study, two at a time between messages, so that the
 * study's code is compiled and optimised before the real repetitions: the first hundred
 * repetitions of a cold thread take two to four times as long as later ones. The made-up
 * results are thrown away; a study's results do not depend on it.
 */
const WARM_UP_REPETITIONS = 40;
const warmUpSizes = Array.from({ length: 60 }, (_, d) => 1 + ((d * 7) % 23));
const warmUpCensus: DocumentStats = documentStats({
  ids: warmUpSizes.map((_, d) => `w${d}`),
  n: warmUpSizes,
  s: warmUpSizes.map((x, d) => Math.floor((x * ((d * 13) % 10)) / 10)),
});
function warmUp(from: number): void {
  if (study !== null || from >= WARM_UP_REPETITIONS) return;
  runRepetitions(
    warmUpCensus,
    {
      documents: 20,
      repetitions: WARM_UP_REPETITIONS,
      replicates: 999,
      seed: 1,
      level: 0.95,
      fpc: false,
    },
    from,
    from + 2,
  );
  setImmediate(() => warmUp(from + 2));
}
setImmediate(() => warmUp(0));

function reply(message: StudyWorkerReply, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

parentPort?.on("message", (request: StudyWorkerRequest) => {
  if (request.type === "study") {
    study = { census: request.census, options: request.options };
    return;
  }
  if (!study) throw new Error("study worker: a range came before its study");
  let sinceTick = 0;
  try {
    const results = runRepetitions(study.census, study.options, request.from, request.to, () => {
      if (++sinceTick === TICK) {
        reply({ type: "tick", repetitions: sinceTick });
        sinceTick = 0;
      }
    });
    if (sinceTick > 0) reply({ type: "tick", repetitions: sinceTick });
    reply({ type: "range-done", results }, [
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
    reply({ type: "user-error", code: error.code, message: error.message });
  }
});
