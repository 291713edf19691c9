import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve as absolutePath } from "node:path";
import { Worker } from "node:worker_threads";
import { RagciError } from "../core/errors.js";
import { SCAN_GATE } from "./scanGate.js";

/**
 * Files at least this large are hashed on a worker thread. SHA-256 runs at about 1 GB/s here
 * (SHA-NI), so a 200 MB input is 0.2 s of CPU: on the main thread it waits whenever that
 * thread is busy (loading DuckDB's client, building the per-document table), on a worker it
 * uses the other core then. Smaller files are not worth a thread's start (~30 ms).
 */
const WORKER_BYTES = 16 * 2 ** 20;

/**
 * What the worker leaves for after DuckDB's scan of the file (scanGate.ts). Beside the scan a
 * core hashing takes as much from DuckDB as it hashes; after it, while the per-document table
 * is built in JavaScript (about 35 ms for 50,000 documents), it takes nothing. So the worker
 * hashes before the scan, goes on during it until this much is left, and hashes the rest after:
 * on the 10⁷-row CSV (210 MB) 60 ms sooner than pausing for the whole scan.
 */
const AFTER_SCAN_BYTES = 32 * 2 ** 20;

/** The worker (CommonJS, evaluated): the file read in 1 MiB pieces into the hash. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { openSync, fstatSync, readSync, closeSync } = require("node:fs");
const { createHash } = require("node:crypto");
const gate = new Int32Array(workerData.gate);
try {
  const fd = openSync(workerData.path, "r");
  try {
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(1 << 20);
    let left = fstatSync(fd).size;
    for (;;) {
      if (left <= workerData.afterScan)
        for (let scans; (scans = Atomics.load(gate, 0)) > 0; ) Atomics.wait(gate, 0, scans);
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      left -= n;
      hash.update(buffer.subarray(0, n));
    }
    parentPort.postMessage({ digest: hash.digest("hex") });
  } finally {
    closeSync(fd);
  }
} catch (error) {
  parentPort.postMessage({ code: error.code, message: error.message });
}
`;

/** Hashes started by prestartSha256 that sha256File has not yet taken, by absolute path. */
const prestarted = new Map<string, { digest: Promise<string>; worker: Worker }>();

/**
 * Starts hashing a large regular file on a worker before anything asks for its digest: the bin
 * entry does so for analyze's and compare's files, so that the hash begins while the CLI's
 * modules load and DuckDB starts (a core is idle then) rather than 40 ms later, and less of it
 * is left for beside the scan. Until sha256File takes the digest the worker does not keep the
 * process alive, so a run that ends sooner (a bad flag) does not wait for it. Anything else (a
 * small file, a directory, a missing path) is left to sha256File.
 */
export function prestartSha256(path: string): void {
  const key = absolutePath(path);
  if (prestarted.has(key)) return;
  let size = 0;
  try {
    const info = statSync(key);
    if (info.isFile()) size = info.size;
  } catch {}
  if (size < WORKER_BYTES) return;
  const started = onWorker(key);
  started.worker.unref();
  started.digest.catch(() => {}); // sha256File reports the failure, if it is asked
  prestarted.set(key, started);
}

/** SHA-256 of a file's bytes, streamed (constant memory); large files on a worker thread. */
export async function sha256File(path: string, displayName = path): Promise<string> {
  const key = absolutePath(path);
  const early = prestarted.get(key);
  if (early) {
    prestarted.delete(key);
    early.worker.ref();
  }
  try {
    if (early) return await early.digest;
    const size = await stat(path).then(
      (info) => (info.isFile() ? info.size : 0),
      () => 0,
    );
    return size >= WORKER_BYTES ? await onWorker(path).digest : await here(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : error instanceof Error
            ? error.message
            : String(error);
    throw new RagciError("unreadable-input", `${displayName}: cannot read it (${reason})`, {
      file: displayName,
    });
  }
}

async function here(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
    hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The worker's digest; should the thread itself fail (not the file), the file is hashed here. */
function onWorker(path: string): { digest: Promise<string>; worker: Worker } {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // Not the process's flags: under --input-type=module (node -e) the source would be an ES
    // module, without require, and fail.
    execArgv: [],
    workerData: { path, gate: SCAN_GATE, afterScan: AFTER_SCAN_BYTES },
  });
  const digest = new Promise<string>((resolve, reject) => {
    worker.once("message", (m: { digest?: string; code?: string; message?: string }) => {
      if (m.digest !== undefined) resolve(m.digest);
      else reject(Object.assign(new Error(m.message), { code: m.code }));
      void worker.terminate();
    });
    worker.once("error", () => here(path).then(resolve, reject));
  });
  return { digest, worker };
}
