import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { RagciError } from "../core/errors.js";

/**
 * Files at least this large are hashed on a worker thread. SHA-256 runs at about 1 GB/s here
 * (SHA-NI), so a 200 MB input is 0.2 s of CPU: on the main thread it waits whenever that
 * thread is busy (loading DuckDB's client, building the per-document table), on a worker it
 * uses the other core then. Smaller files are not worth a thread's start (~30 ms).
 */
const WORKER_BYTES = 16 * 2 ** 20;

/** The worker (CommonJS, evaluated): the file read in 1 MiB pieces into the hash. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { openSync, readSync, closeSync } = require("node:fs");
const { createHash } = require("node:crypto");
try {
  const fd = openSync(workerData.path, "r");
  try {
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; )
      hash.update(buffer.subarray(0, n));
    parentPort.postMessage({ digest: hash.digest("hex") });
  } finally {
    closeSync(fd);
  }
} catch (error) {
  parentPort.postMessage({ code: error.code, message: error.message });
}
`;

/** SHA-256 of a file's bytes, streamed (constant memory); large files on a worker thread. */
export async function sha256File(path: string, displayName = path): Promise<string> {
  const size = await stat(path).then(
    (info) => (info.isFile() ? info.size : 0),
    () => 0,
  );
  try {
    return size >= WORKER_BYTES ? await onWorker(path) : await here(path);
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

function onWorker(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
    worker.once("message", (m: { digest?: string; code?: string; message?: string }) => {
      if (m.digest !== undefined) resolve(m.digest);
      else reject(Object.assign(new Error(m.message), { code: m.code }));
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}
