import type { Readable } from "node:stream";
import type { Progress } from "./progress.js";

/** What a command may use of the process; main.ts builds it, commands never touch `process`. */
export interface CommandIo {
  readonly stdin: Readable;
  readonly color: boolean;
  readonly progress: Progress;
  readonly version: string;
  /** Aborted on Ctrl-C: long work stops cleanly (exit 130, no output written). */
  readonly signal?: AbortSignal;
}
