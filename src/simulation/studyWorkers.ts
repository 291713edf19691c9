import { Worker } from "node:worker_threads";

/**
 * The study's worker threads, kept between studies (one per column of K) and started as early
 * as the CLI knows a study is coming, so that their start-up (a V8 isolate, the study's
 * modules, the WebAssembly kernels) overlaps the reading of the census. An idle worker does
 * not keep the process alive.
 */
const idle: Worker[] = [];

/** An idle worker's failure surfaces when a study uses it (as its exit), not as a crash. */
const ignore = () => {};

function startWorker(): Worker {
  const worker = new Worker(new URL("./studyWorker.js", import.meta.url));
  worker.on("error", ignore);
  worker.unref();
  return worker;
}

/** Starts `count` study workers now; a later study takes them instead of starting its own. */
export function prestartStudyWorkers(count: number): void {
  for (let i = idle.length; i < count; i++) idle.push(startWorker());
}

/** `count` workers for a study: started ones first, then new ones. They keep the process alive. */
export function acquireStudyWorkers(count: number): Worker[] {
  const taken = idle.splice(0, count);
  while (taken.length < count) taken.push(startWorker());
  for (const w of taken) {
    w.removeListener("error", ignore);
    w.ref();
  }
  return taken;
}

/**
 * Hands workers back after a study, once they have no message of it left to send and the
 * study's own listeners are off (a Worker's internal listeners must stay, so never
 * removeAllListeners).
 */
export function releaseStudyWorkers(workers: readonly Worker[]): void {
  for (const w of workers) {
    w.on("error", ignore);
    w.unref();
    idle.push(w);
  }
}

/** Stops workers for good (after an error or an interruption: they may still be computing). */
export function stopStudyWorkers(workers: readonly Worker[]): void {
  for (const w of workers) void w.terminate();
}
