import type { Command } from "commander";
import { type CommandIo, emitReport } from "./io.js";
import {
  withDesignOptions,
  withInferenceOptions,
  withReportOptions,
  withResultsFileOptions,
} from "./options.js";
import type { ReportOptions } from "./reportOptions.js";

/** Whether --replicates was given: the default B is skipped above a budget, a given B never. */
export interface ReplicatesGiven {
  readonly replicatesExplicit?: boolean;
}

/**
 * analyze and compare: the results-file flags, the command's own, then the design, inference
 * and output flags (in that order in --help), the examples, and the action, which records
 * whether --replicates was given before the report goes to -o or standard output.
 */
export function inferenceCommand<O extends ReportOptions & ReplicatesGiven>(
  command: Command,
  own: (command: Command) => Command,
  help: { readonly schema: string; readonly examples: string },
  run: (files: readonly string[], options: O, io: CommandIo) => Promise<string>,
  io: CommandIo,
): Command {
  return withReportOptions(
    withInferenceOptions(withDesignOptions(own(withResultsFileOptions(command)))),
    help.schema,
  )
    .addHelpText("after", help.examples)
    .action(async (files: string[], options: O, self: Command) => {
      const explicit = self.getOptionValueSource("replicates") === "cli";
      const text = await run(files, { ...options, replicatesExplicit: explicit }, io);
      await emitReport(io, text, options.output);
    });
}
