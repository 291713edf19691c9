import { RagciError } from "../core/errors.js";
import { checkAggregatesFileName, parseSystemSelection } from "../ingest/index.js";
import { type AnalyzeSourceOptions, checkAnalysisCensus } from "../simulation/analyzeSource.js";
import type { ReplicatesGiven } from "./inferenceCommand.js";
import {
  namedOutput,
  type ReportFormat,
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
} from "./reportOptions.js";
import { checkSources, type SourceFlags } from "./sourceOptions.js";

export interface AnalyzeCommandOptions
  extends SourceFlags,
    ReportOptions,
    AnalyzeSourceOptions,
    ReplicatesGiven {
  readonly metric?: string[];
  readonly system?: string;
}

/**
 * analyze's flags checked together before any file is read: the sources, the output format,
 * --system, the aggregates' file name, --census without a design, and no output onto an input.
 *
 * @throws RagciError naming the flags to change
 */
export async function checkAnalyzeOptions(
  files: readonly string[],
  options: AnalyzeCommandOptions,
): Promise<ReportFormat> {
  if (files.filter((f) => f === "-").length > 1)
    throw new RagciError("invalid-option", "stdin (-) can be read only once");
  checkSources(files, options);
  const format = reportFormat(options);
  parseSystemSelection(options.system);
  if (options.writeAggregates) checkAggregatesFileName(options.writeAggregates);
  checkAnalysisCensus(options);
  await refuseUnsafe(
    [...files, options.design, options.census, options.docMap, options.qrels],
    options,
    [namedOutput("--write-aggregates", options.writeAggregates)],
  );
  return format;
}
