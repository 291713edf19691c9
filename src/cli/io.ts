import type { Readable } from "node:stream";
import type { Command } from "commander";
import { writeFileAtomic } from "../ingest/index.js";
import { withFlags } from "./flagHints.js";
import type { Progress } from "./progress.js";

/** What a command may use of the process; main.ts builds it, commands never touch `process`. */
export interface CommandIo {
  readonly stdin: Readable;
  /**
   * The process's environment: a database's client reads its credentials from it, and the
   * regression gate reads GITHUB_STEP_SUMMARY and GITHUB_ACTIONS.
   */
  readonly env: NodeJS.ProcessEnv;
  readonly color: boolean;
  readonly progress: Progress;
  readonly version: string;
  /** Aborted on Ctrl-C: long work stops cleanly (exit 130, no output written). */
  readonly signal?: AbortSignal;
  /** Writes text to standard output. */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error (GitHub workflow commands). */
  readonly stderr?: (text: string) => void;
  /** Marks a failed regression gate: the run exits 1 once its report is written. */
  readonly gateFailed?: () => void;
}

/**
 * A command's report: to `-o FILE` (atomically) when given, else to standard output; core's
 * option references become flags.
 */
export async function emitReport(io: CommandIo, report: string, output?: string): Promise<void> {
  const text = withFlags(report);
  if (output) await writeFileAtomic(output, text);
  else io.stdout(text);
}

/** A command's action: its run returns the report, which goes to -o or standard output. */
export function reportAction<A, O extends { readonly output?: string }>(
  io: CommandIo,
  run: (arg: A, options: O, io: CommandIo) => Promise<string>,
): (arg: A, options: O) => Promise<void> {
  return async (arg, options) => emitReport(io, await run(arg, options, io), options.output);
}

/**
 * reportAction for a command with a flag whose default is core's too: the flag reaches `run`
 * only when given, so that core can refuse it where it would do nothing (simulate --allocation
 * without stratified sampling, plan --power without --difference).
 */
export function reportActionWhenGiven<A, O extends { readonly output?: string }>(
  io: CommandIo,
  run: (arg: A, options: O, io: CommandIo) => Promise<string>,
  flag: keyof O & string,
): (arg: A, options: O, command: Command) => Promise<void> {
  return async (arg, options, command) => {
    const { [flag]: _defaulted, ...rest } = options;
    const given = command.getOptionValueSource(flag) === "cli";
    await reportAction(io, run)(arg, given ? options : (rest as O));
  };
}
