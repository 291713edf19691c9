import { type DocumentStatsInput, documentStats } from "./aggregate/documentStats.js";
import { documentStatsFromRows, type RowsOptions } from "./aggregate/documentStatsFromRows.js";
import { type Analysis, type AnalyzeOptions, analyze as analyzeStats } from "./analyze.js";
import type { DocumentStats } from "./types.js";

function isDocumentStats(value: DocumentStats | DocumentStatsInput): value is DocumentStats {
  return value.n instanceof Float64Array && "binary" in value && "min" in value;
}

/**
 * Document-level analysis of one metric — micro and macro estimates, every interval of SPEC §3,
 * the diagnostics and the advice — from per-document sums (`documentStats`' input or output) or
 * from in-memory rows, one per query result (with `options.doc` and `options.metric`). The
 * library's `analyze`, in "ragci" and "ragci/core" alike.
 *
 * @example analyze({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }, { replicates: 0 }).micro?.estimate
 * // => 0.5
 * @example analyze([{ doc: "a", hit: 1 }, { doc: "a", hit: 0 }, { doc: "b", hit: 1 }, { doc: "c", hit: 0 }], { doc: "doc", metric: "hit", replicates: 0 }).documents
 * // => 3
 */
export function analyze(
  input: DocumentStats | DocumentStatsInput,
  options?: AnalyzeOptions,
): Analysis;
export function analyze(
  rows: readonly Readonly<Record<string, unknown>>[],
  options: AnalyzeOptions & RowsOptions,
): Analysis;
export function analyze(
  input: DocumentStats | DocumentStatsInput | readonly Readonly<Record<string, unknown>>[],
  options: AnalyzeOptions & Partial<RowsOptions> = {},
): Analysis {
  if (Array.isArray(input)) {
    const { doc, metric, ...rest } = options;
    if (!doc || !metric)
      throw new TypeError("analyze(rows, options) needs options.doc and options.metric");
    return analyzeStats(documentStatsFromRows(input, { doc, metric }), rest);
  }
  const stats = input as DocumentStats | DocumentStatsInput;
  return analyzeStats(isDocumentStats(stats) ? stats : documentStats(stats), options);
}
