import { type DocumentStatsInput, documentStats } from "../core/aggregate/documentStats.js";
import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";

/**
 * core's documentStats of one input's sums, its refusal of a document's sums naming the file
 * (and, for sums of a per-query file, the metric). There every value passed the row checks, so
 * a non-finite sum is an overflow of values too large, and the refusal says to rescale.
 */
export function documentStatsIn(
  file: string,
  input: DocumentStatsInput,
  perQuery?: { readonly metric: string },
): DocumentStats {
  try {
    return documentStats(input);
  } catch (error) {
    if (!(error instanceof RagciError)) throw error;
    const where = perQuery ? `${file}: ${perQuery.metric}` : file;
    const overflow = perQuery !== undefined && / has a non-finite sum /.test(error.message);
    throw new RagciError(
      error.code,
      `${where}: ${error.message}${overflow ? `; its values are too large for their sums and sums of squares to be doubles: rescale ${perQuery.metric} (e.g. to other units)` : ""}`,
      { ...error.context, file },
    );
  }
}
