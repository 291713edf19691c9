import { compareCodePoints, mergeDocumentStats } from "../core/aggregate/mergeDocumentStats.js";
import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import { RagciError } from "../core/errors.js";
import { documentRanges } from "./documentRanges.js";
import type { DocumentRanges, MetricAggregates } from "./resultsTable.js";

/** One input file's per-document tables, named as the user gave the file. */
export interface Shard {
  readonly file: string;
  readonly groups: readonly MetricAggregates[];
}

/** Merges the same system × metric across input files (shards) by adding per-document sums. */
export function mergeShards(
  shards: readonly Shard[],
  labelColumn: string | null,
): MetricAggregates[] {
  const keyed = new Map<string, MetricAggregates[]>();
  const files = new Map<MetricAggregates, string>();
  for (const { file, groups } of shards) {
    for (const group of groups) {
      const key = JSON.stringify([group.system, group.metric]);
      keyed.set(key, [...(keyed.get(key) ?? []), group]);
      files.set(group, file);
    }
  }
  return [...keyed.values()].map((groups) => {
    if (groups.length === 1) return groups[0] as MetricAggregates;
    const stats = mergeDocumentStats(groups.map((g) => g.stats));
    return {
      system: (groups[0] as MetricAggregates).system,
      metric: (groups[0] as MetricAggregates).metric,
      stats,
      ranges: mergedRanges(groups, stats.ids),
      ...mergedValues(groups),
      ...(labelColumn ? { labels: mergedLabels(groups, files, stats.ids, labelColumn) } : {}),
    };
  });
}

/** A document's design label across shards: it must be the same in every shard that has it. */
function mergedLabels(
  groups: readonly MetricAggregates[],
  files: ReadonlyMap<MetricAggregates, string>,
  ids: readonly string[],
  labelColumn: string,
): string[] {
  const labelOf = new Map<string, { label: string; file: string }>();
  for (const g of groups) {
    const file = files.get(g) as string;
    g.stats.ids.forEach((id, d) => {
      const label = g.labels?.[d] as string;
      const seen = labelOf.get(id);
      if (seen !== undefined && seen.label !== label) {
        throw new RagciError(
          "invalid-design",
          `document ${id} has ${labelColumn} ${seen.label} in ${seen.file} and ${label} in ${file}; a document belongs to one ${labelColumn}: correct one of the files`,
          { column: labelColumn },
        );
      }
      labelOf.set(id, { label, file });
    });
  }
  return ids.map((id) => (labelOf.get(id) as { label: string }).label);
}

/**
 * Each document's range across shards: the least of its minimums and the greatest of its
 * maximums (NaN, not known, when a shard that has the document does not know its range).
 */
function mergedRanges(groups: readonly MetricAggregates[], ids: readonly string[]): DocumentRanges {
  const at = new Map(ids.map((id, d) => [id, d]));
  const min = new Float64Array(ids.length).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(ids.length).fill(Number.NEGATIVE_INFINITY);
  for (const g of groups) {
    const ranges = documentRanges(g);
    g.stats.ids.forEach((id, i) => {
      const d = at.get(id) as number;
      min[d] = Math.min(min[d] as number, ranges.min[i] as number);
      max[d] = Math.max(max[d] as number, ranges.max[i] as number);
    });
  }
  return { min, max };
}

/** Per-query values of shards, merged document by document (sorted inside each, as ingested). */
function mergedValues(groups: readonly MetricAggregates[]): { values?: ResultValues } {
  if (groups.some((g) => g.values === undefined)) return {};
  const perDocument = new Map<string, number[]>();
  for (const g of groups) {
    const v = g.values as ResultValues;
    g.stats.ids.forEach((id, d) => {
      const list = perDocument.get(id) ?? [];
      for (let i = v.offsets[d] as number; i < (v.offsets[d + 1] as number); i++)
        list.push(v.values[i] as number);
      perDocument.set(id, list);
    });
  }
  const ids = [...perDocument.keys()].sort(compareCodePoints);
  const offsets = new Uint32Array(ids.length + 1);
  const values: number[] = [];
  ids.forEach((id, d) => {
    values.push(...(perDocument.get(id) as number[]).sort((a, b) => a - b));
    offsets[d + 1] = values.length;
  });
  return { values: { offsets, values: Float64Array.from(values) } };
}
