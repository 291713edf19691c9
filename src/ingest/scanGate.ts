/**
 * A count shared with worker threads, above 0 while DuckDB runs a scan over an input's rows on
 * every core. Background work (hashing the input, sha256File.ts) keeps part of itself for when
 * it is 0 again: on two cores a hash beside the scan slows the scan by half of what it hashes,
 * while before the scan (DuckDB loading, the file's columns being sniffed) and after it (the
 * per-document table built in JavaScript) a core is idle.
 */
const count = new Int32Array(new SharedArrayBuffer(4));

/** The shared memory behind the count, for a worker to wait on (Atomics.wait at index 0). */
export const SCAN_GATE = count.buffer as SharedArrayBuffer;

let markScanStarted: () => void = () => {};
const scanStarted = new Promise<void>((resolve) => {
  markScanStarted = resolve;
});

/**
 * Settles when the process's first scan starts: from then until it ends the main thread
 * waits on DuckDB, a time to load what comes after the reading (loadDuringScan.ts).
 */
export function firstScanStarted(): Promise<void> {
  return scanStarted;
}

/** Runs `scan` with the gate closed; background work resumes when the last scan ends. */
export async function duringScan<T>(scan: () => Promise<T>): Promise<T> {
  Atomics.add(count, 0, 1);
  markScanStarted();
  try {
    return await scan();
  } finally {
    if (Atomics.sub(count, 0, 1) === 1) Atomics.notify(count, 0);
  }
}
