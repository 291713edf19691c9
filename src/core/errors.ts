/** Closed set of user-error kinds; the CLI maps every one of them to exit code 2. */
export type RagciErrorCode =
  | "too-few-documents"
  | "invalid-document-stats"
  | "single-document-holds-all"
  | "population-too-small"
  | "invalid-option"
  | "unreadable-input"
  | "missing-column"
  | "ambiguous-column"
  | "invalid-value"
  | "empty-input"
  | "invalid-design"
  /** The user stopped the run (Ctrl-C); the CLI exits with 130 and writes nothing. */
  | "interrupted";

export interface RagciErrorContext {
  readonly file?: string;
  readonly row?: number;
  readonly column?: string;
  readonly document?: string;
  readonly stratum?: string;
  /** The option to change, by its library name (the CLI shows its flag). */
  readonly option?: OptionName;
}

/**
 * A precondition the user can fix (bad input, impossible option). Everything else that goes
 * wrong is a bug. `message` is one line that says what happened and what to do.
 */
export class RagciError extends Error {
  readonly code: RagciErrorCode;
  readonly context: RagciErrorContext;

  constructor(code: RagciErrorCode, message: string, context: RagciErrorContext = {}) {
    super(message);
    this.name = "RagciError";
    this.code = code;
    this.context = context;
  }
}

/**
 * @example isRagciError(new RagciError("invalid-option", "level 2 must be in (0, 1)"))
 *   // => true
 */
export function isRagciError(value: unknown): value is RagciError {
  return value instanceof RagciError;
}

/**
 * Options a core or ingest message may ask the user to change, by their library names: the
 * fields of ingest's Source and Selection (doc, query, format, aggregated, docMap, system,
 * intersect, trial, judge, variant; url, table, sql of a database; `metric` for
 * Selection.metrics, one metric or more), ingest's ReadOptions.documentLabel, and core's options.
 */
export type OptionName =
  | "replicates"
  | "chunkBootstrap"
  | "cutoff"
  | "allocation"
  | "lonelyPsu"
  | "baseline"
  | "allPairs"
  | "system"
  | "metric"
  | "doc"
  | "query"
  | "format"
  | "aggregated"
  | "censusAggregated"
  | "docMap"
  | "errorsAsFailures"
  | "qrels"
  | "completeQueries"
  | "intersect"
  | "url"
  | "table"
  | "sql"
  | "writeAggregates"
  | "census"
  | "population"
  | "sd"
  | "sdMacro"
  | "sdMicro"
  | "documents"
  | "dialect"
  | "design"
  | "sampling"
  | "stratum"
  | "psu"
  | "documentLabel"
  | "k"
  | "units"
  | "perUnit"
  | "reps"
  | "pair"
  | "curve"
  | "trial"
  | "judge"
  | "variant"
  | "failIfWorse"
  | "requireNoninferior"
  | "margin"
  | "lowerIsBetter"
  | "halfWidth"
  | "difference"
  | "power"
  | "cost"
  | "budget"
  | "level"
  | "fpc";

/**
 * How a core message names an option: `replicates` in backticks. Core knows no flags; the CLI
 * shows each reference as its flag (--replicates), see cli/flagHints.ts.
 */
export function optionRef(name: OptionName): string {
  return `\`${name}\``;
}
