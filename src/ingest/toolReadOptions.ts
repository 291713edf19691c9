import type { EvalResultsOptions } from "./evalFormats/evalResultsFile.js";
import type { EvalFormat } from "./evalFormats/evalRows.js";
import { readDocMap } from "./evalFormats/readDocMap.js";
import { hasFacets } from "./facetRequest.js";
import type { FilesSource } from "./source.js";

/**
 * How a files source asks evaluation tools' outputs to be read (the --doc path, the doc map,
 * the qrels, provider errors), for the tables and the paired reads alike.
 */
export async function toolReadOptions(
  source: FilesSource,
  format: EvalFormat | null,
  metrics: readonly string[] | null,
): Promise<EvalResultsOptions> {
  return {
    format,
    doc: source.doc ?? null,
    metrics,
    docMap: source.docMap ? await readDocMap(source.docMap) : null,
    qrels: source.qrels ?? null,
    completeQueries: source.completeQueries ?? false,
    errors: source.errorsAsFailures ? "failures" : "apart",
    ...(hasFacets(source)
      ? {
          facets: {
            trial: source.trial ?? null,
            judge: source.judge ?? null,
            variant: source.variant ?? null,
          },
        }
      : {}),
  };
}
