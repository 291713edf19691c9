import type { Readable } from "node:stream";
import { writeFileAtomic } from "../ingest/writeAtomic.js";
import type { Progress } from "./progress.js";

/** What a command may use of the process; main.ts builds it, commands never touch `process`. */
export interface CommandIo {
  readonly stdin: Readable;
  readonly color: boolean;
  readonly progress: Progress;
  readonly version: string;
  /** Aborted on Ctrl-C: long work stops cleanly (exit 130, no output written). */
  readonly signal?: AbortSignal;
  /** Writes text to standard output. */
  readonly stdout: (text: string) => void;
}

/** A command's report: to `-o FILE` (atomically) when given, else to standard output. */
export async function emitReport(io: CommandIo, text: string, output?: string): Promise<void> {
  if (output) await writeFileAtomic(output, text);
  else io.stdout(text);
}
