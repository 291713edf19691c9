import { mergeShards } from "./mergeShards.js";
import type { MetricAggregates } from "./readResults.js";
import { readSource } from "./readSource.js";
import type { Selection } from "./selection.js";
import { checkShardKinds } from "./shardKinds.js";
import type { ReadProgress, Source } from "./source.js";

/** One per-document table made of a source's inputs, and what the reading noticed. */
export interface PerDocumentTable {
  /** One per system × metric, shards added document by document. */
  readonly groups: MetricAggregates[];
  /** The inputs whose sums are not exact (summed in double precision on one thread). */
  readonly inexact: string[];
  /** What the readers did that was not asked for (rows left out, systems split). */
  readonly notices: string[];
}

/**
 * `ragci aggregate` (per-query files) and `ragci merge` (per-document tables, `aggregated`):
 * every input read into per-document sums, and shards of one system × metric added document
 * by document (the same metric kind in each); `label` is a per-document column to keep.
 *
 * @throws RagciError when a metric is 0/1 in one shard and a score in another
 */
export async function readPerDocumentTable(
  source: Source,
  selection: Selection,
  options: {
    readonly label: string | null;
    readonly progress?: ReadProgress;
    /** The command reading, named in refusals ("aggregate", "merge"). */
    readonly usedBy?: string;
  },
): Promise<PerDocumentTable> {
  const reads = await readSource(source, selection, {
    read: "tables",
    documentLabel: options.label,
    // merge adds a document's rows, within a table as across tables (shards concatenated).
    addRepeatedDocuments: true,
    ...(options.usedBy ? { usedBy: options.usedBy } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const shards = reads.map(({ table, description }) => ({
    file: description.file,
    groups: table.groups,
  }));
  checkShardKinds(shards);
  return {
    groups: mergeShards(shards, options.label),
    inexact: reads.filter((r) => r.table.summation !== "exact").map((r) => r.description.file),
    notices: reads.flatMap((r) => r.table.notices),
  };
}
