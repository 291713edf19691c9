import { checkPairPolicy } from "../core/comparisonPairs.js";
import { RagciError } from "../core/errors.js";
import type { Estimand } from "../core/types.js";
import type { DesignOptions } from "../ingest/index.js";
import { checkAggregatesFileName, type Selection } from "../ingest/index.js";
import type { CensusStudyFlags } from "./censusStudy.js";
import type { GateFlags } from "./gateOptions.js";
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
  extends DesignOptions,
    SourceFlags,
    ReportOptions,
    CensusStudyFlags,
    GateFlags,
    ReplicatesGiven {
  readonly system?: string;
  readonly metric?: string[];
  readonly baseline?: string;
  readonly allPairs?: boolean;
  readonly intersect?: boolean;
  readonly estimand?: Estimand;
  readonly writeAggregates?: string;
  readonly chunkBootstrap?: boolean;
}

/**
 * compare's flags checked together before any file is read: files or --from, the metrics, the
 * output format, --system (two systems or more), the pair policy, --aggregated with one table,
 * --census with a system column and no design, and no output onto an input.
 *
 * @throws RagciError naming the flags to change
 */
export async function checkCompareOptions(
  files: readonly string[],
  options: CompareCommandOptions,
  env: NodeJS.ProcessEnv,
): Promise<{
  readonly format: ReportFormat;
  readonly metrics: readonly string[];
  readonly selection: Selection;
}> {
  checkSources(files, options);
  if (!options.metric || options.metric.length === 0) {
    throw new RagciError(
      "invalid-option",
      "name the metric(s) to compare with --metric (e.g. --metric hit5,rr)",
    );
  }
  const format = reportFormat(options);
  const selection = selectionOf(options);
  checkPairPolicy({ baseline: options.baseline ?? null, allPairs: options.allPairs ?? false });
  if (selection.systems && selection.systems.length < 2) {
    throw new RagciError(
      "invalid-option",
      `--system ${options.system}: a comparison needs two systems or more, e.g. --system ${selection.systemColumn}=${selection.systems[0]},OTHER (or the column alone for every system)`,
    );
  }
  if (options.writeAggregates) checkAggregatesFileName(options.writeAggregates);
  if (options.aggregated && files.length !== 1) {
    throw new RagciError(
      "invalid-option",
      "--aggregated reads one per-document table (written by ragci compare --write-aggregates); give one file",
    );
  }
  if (options.census && (options.design || !options.system || options.aggregated)) {
    throw new RagciError(
      "invalid-option",
      "--census reads a per-query census with a system column (--system COL) and runs an SRS study; with a design or per-document input, study it with ragci simulate",
    );
  }
  // A gate appends its table to GitHub's step summary: a file written, checked as -o is.
  const gated = options.failIfWorse || options.requireNoninferior;
  const stepSummary = gated ? namedOutput("GITHUB_STEP_SUMMARY", env.GITHUB_STEP_SUMMARY) : null;
  await refuseUnsafe(
    [...files, options.design, options.census, options.docMap, options.qrels],
    options,
    [namedOutput("--write-aggregates", options.writeAggregates), stepSummary],
  );
  return { format, metrics: options.metric, selection };
}
