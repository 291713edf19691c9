import type { DocumentRanges, MetricAggregates } from "./resultsTable.js";

/**
 * Each document's smallest and largest single result: as the reader kept them; for a 0/1
 * metric, else, from its sums (a 0 when s < n, a 1 when s > 0); otherwise not known (NaN).
 */
export function documentRanges(group: MetricAggregates): DocumentRanges {
  if (group.ranges) return group.ranges;
  const { n, s, binary, ids } = group.stats;
  const min = new Float64Array(ids.length).fill(Number.NaN);
  const max = new Float64Array(ids.length).fill(Number.NaN);
  if (binary) {
    for (let d = 0; d < ids.length; d++) {
      min[d] = (s[d] as number) < (n[d] as number) ? 0 : 1;
      max[d] = (s[d] as number) > 0 ? 1 : 0;
    }
  }
  return { min, max };
}
