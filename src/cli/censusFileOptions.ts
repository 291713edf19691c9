import type { Command } from "commander";
import {
  type SystemUse,
  withAggregatedOption,
  withDocOption,
  withFormatOption,
  withMetricOption,
  withQueryOption,
  withSystemOption,
} from "./options.js";
import type { DatabaseOptions } from "./sourceOptions.js";

/** The flags that say how to read a census. */
export interface CensusInputOptions extends DatabaseOptions {
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly query?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly threads?: number;
}

/**
 * Adds the flags a census is read with (simulate, strata): --doc, --metric, --system (which
 * says what the command makes of it), --query to pair two systems when asked, --format and
 * --aggregated.
 */
export function withCensusFileOptions(
  command: Command,
  system: Extract<SystemUse, "one" | "oneOrPair">,
  query: boolean,
): Command {
  withSystemOption(withMetricOption(withDocOption(command), "one"), system);
  if (query) withQueryOption(command, "pairedWhenTwo");
  return withAggregatedOption(withFormatOption(command, "tables"));
}
