import { type OptionName, optionRef, RagciError } from "../core/errors.js";
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

/** The flags that only reading a tool's output uses, as the source holds them. */
const TOOL_ONLY_FLAGS: readonly [OptionName, (source: FilesSource) => unknown][] = [
  ["docMap", (s) => s.docMap],
  ["qrels", (s) => s.qrels],
  ["completeQueries", (s) => s.completeQueries],
  ["errorsAsFailures", (s) => s.errorsAsFailures],
];

/**
 * A results table read with a flag that only a tool's output uses (--qrels, --doc-map,
 * --complete-queries, --errors-as-failures) is refused: the flag would do nothing, and a user
 * who gave it expects it to.
 */
export function refuseToolFlagsOnTable(source: FilesSource, displayName: string): void {
  const given = TOOL_ONLY_FLAGS.find(([, value]) => Boolean(value(source)));
  if (!given) return;
  throw new RagciError(
    "invalid-option",
    `${displayName}: is a results table, not an evaluation tool's output, and ${optionRef(given[0])} applies only to tools' outputs (docs/inputs.md); leave it out, or name the tool with ${optionRef("format")}`,
    { file: displayName, option: given[0] },
  );
}
