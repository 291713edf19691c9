import { RagciError } from "../core/errors.js";
import type { Estimand } from "../core/types.js";
import type { DesignOptions } from "../ingest/index.js";
import { checkAggregatesFileName, parseSystemSelection } from "../ingest/index.js";
import type { AnalysisCensusFlags } from "./censusStudy.js";
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
  extends DesignOptions,
    SourceFlags,
    ReportOptions,
    AnalysisCensusFlags,
    ReplicatesGiven {
  readonly level: number;
  readonly population?: number;
  readonly estimand?: Estimand;
  readonly metric?: string[];
  readonly system?: string;
  readonly replicates: number;
  readonly writeAggregates?: string;
  readonly censusAggregated?: boolean;
  readonly seed: number;
  readonly chunkBootstrap?: boolean;
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
  if (options.census && options.design) {
    throw new RagciError(
      "invalid-option",
      "--census runs an SRS study; with a design, study it with ragci simulate on the census",
    );
  }
  await refuseUnsafe(
    [...files, options.design, options.census, options.docMap, options.qrels],
    options,
    [namedOutput("--write-aggregates", options.writeAggregates)],
  );
  return format;
}
