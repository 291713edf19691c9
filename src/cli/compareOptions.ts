import type { GateRequest } from "../core/gateRequest.js";
import type { Selection } from "../ingest/index.js";
import { type CompareSourceOptions, checkComparison } from "../simulation/compareSource.js";
import type { ReplicatesGiven } from "./inferenceCommand.js";
import {
  namedOutput,
  type ReportFormat,
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
} from "./reportOptions.js";
import { checkSources, type SourceFlags, selectionOf } from "./sourceOptions.js";

export interface CompareCommandOptions
  extends SourceFlags,
    ReportOptions,
    CompareSourceOptions,
    GateRequest,
    ReplicatesGiven {
  readonly system?: string;
  readonly metric?: string[];
  readonly baseline?: string;
  readonly allPairs?: boolean;
  readonly intersect?: boolean;
}

/**
 * compare's flags checked together before any file is read: files or --from, the output format,
 * the comparison (library's checkComparison), and no output onto an input.
 *
 * @throws RagciError naming the flags to change
 */
export async function checkCompareOptions(
  files: readonly string[],
  options: CompareCommandOptions,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly format: ReportFormat; readonly selection: Selection }> {
  checkSources(files, options);
  const format = reportFormat(options);
  const selection = { ...selectionOf(options), intersect: options.intersect === true };
  checkComparison(files, selection, options);
  // A gate appends its table to GitHub's step summary: a file written, checked as -o is.
  const gated = options.failIfWorse || options.requireNoninferior;
  const stepSummary = gated ? namedOutput("GITHUB_STEP_SUMMARY", env.GITHUB_STEP_SUMMARY) : null;
  await refuseUnsafe(
    [...files, options.design, options.census, options.docMap, options.qrels],
    options,
    [namedOutput("--write-aggregates", options.writeAggregates), stepSummary],
  );
  return { format, selection };
}
