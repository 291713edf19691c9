import { optionRef } from "../core/errors.js";
import { refuseUnsafeOutputs, type Source } from "../ingest/index.js";

/**
 * The per-document table a run is asked to write (`writeAggregates`), refused before anything is
 * read when it would overwrite one of the run's inputs (outputSafety.ts's one guard): the
 * library's callers get the check the command line makes.
 *
 * @throws RagciError when the table's path names an input, or cannot be written
 */
export async function refuseUnsafeAggregates(
  source: Source,
  options: {
    readonly writeAggregates?: string | undefined;
    readonly census?: string | undefined;
    readonly design?: string | undefined;
  },
): Promise<void> {
  if (!options.writeAggregates) return;
  const files = "files" in source ? [...source.files, source.docMap, source.qrels] : [];
  await refuseUnsafeOutputs(
    [...files, options.census, options.design].filter((f): f is string => typeof f === "string"),
    [{ flag: optionRef("writeAggregates"), path: options.writeAggregates }],
  );
}
