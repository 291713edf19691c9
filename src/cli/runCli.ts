import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { isRagciError } from "../core/errors.js";
import { COMMANDS, type Register } from "./commandRegistry.js";
import { exitCode, outcomeOf } from "./exitCode.js";
import { withFlags } from "./flagHints.js";
import type { CommandIo } from "./io.js";
import { progress } from "./progress.js";

const { version } = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
) as { version: string };

/**
 * The command line: the only place that touches the process — argv in, text out, exit code set.
 * main.ts runs it for the ES module chunks, commonJsEntry.ts for the CommonJS bundle.
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  // A reader that stops early (`ragci … | head`) is not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  const color =
    Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== "dumb";
  // Ctrl-C: commands that listen stop their work; the exit code is 130 and no file is written.
  const interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort());
  let gateFailed = false;
  const io: CommandIo = {
    signal: interrupt.signal,
    stdin: process.stdin,
    env: process.env,
    color,
    progress: progress(process.stderr, Boolean(process.stderr.isTTY)),
    version,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    gateFailed: () => {
      gateFailed = true;
    },
  };
  const program = new Command()
    .name("ragci")
    .description(
      "Honest error bars for retrieval and RAG evaluations: the document, not the query, is the sampling unit.",
    )
    .version(version)
    .exitOverride()
    .configureOutput({ writeErr: () => {} })
    .showHelpAfterError(false);
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? [argv[0]] : null;
  const registers = await Promise.all(
    (named ?? Object.keys(COMMANDS)).map((name) => (COMMANDS[name] as () => Promise<Register>)()),
  );
  for (const register of registers) register(program, io);
  for (const c of program.commands) c.exitOverride().configureOutput({ writeErr: () => {} });
  if (argv.length === 0) {
    process.stderr.write(program.helpInformation());
    process.exitCode = exitCode({ kind: "user-error" });
    return;
  }
  // `ragci help NAME` of no command: commander would print its help where writeErr discards it
  // and exit 0; parsed as NAME, it is refused as an unknown command, with a suggestion.
  const unknownHelp =
    argv[0] === "help" && argv[1] !== undefined && !Object.hasOwn(COMMANDS, argv[1]);
  try {
    await program.parseAsync((unknownHelp ? argv.slice(1, 2) : argv) as string[], {
      from: "user",
    });
    process.exitCode = exitCode({ kind: gateFailed ? "gate-failed" : "ok" });
  } catch (error) {
    io.progress.done();
    if (
      error instanceof CommanderError &&
      (error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help")
    ) {
      process.exitCode = 0;
      return;
    }
    const outcome = outcomeOf(error);
    if (isRagciError(error)) process.stderr.write(`ragci: ${withFlags(error.message)}\n`);
    else if (error instanceof CommanderError) {
      const command = program.commands.find((c) => c.name() === argv[0]);
      const help = command ? `ragci ${command.name()} --help` : "ragci --help";
      process.stderr.write(
        `ragci: ${error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ")} (see ${help})\n`,
      );
    } else {
      const detail =
        error instanceof Error
          ? process.env.RAGCI_DEBUG
            ? error.stack
            : error.message
          : String(error);
      process.stderr.write(
        `ragci: internal error, please report it with the command line: ${detail}\n`,
      );
    }
    process.exitCode = exitCode(outcome);
  }
}
