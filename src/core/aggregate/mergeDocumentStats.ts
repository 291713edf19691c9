import type { DocumentStats } from "../types.js";
import { documentStats } from "./documentStats.js";

/**
 * Adds the sufficient statistics of shards: n, s and ss are sums, so a per-query file split
 * into shards and aggregated separately merges to exactly the aggregates of the whole file
 * (up to floating-point addition order). Documents are ordered by id (code-point order).
 */
export function mergeDocumentStats(shards: readonly DocumentStats[]): DocumentStats {
  const totals = new Map<string, { n: number; s: number; ss: number }>();
  let binary = true;
  let min: number | null = Number.POSITIVE_INFINITY;
  let max: number | null = Number.NEGATIVE_INFINITY;
  for (const shard of shards) {
    binary &&= shard.binary;
    min = min === null || shard.min === null ? null : Math.min(min, shard.min);
    max = max === null || shard.max === null ? null : Math.max(max, shard.max);
    shard.ids.forEach((id, d) => {
      const t = totals.get(id) ?? { n: 0, s: 0, ss: 0 };
      t.n += shard.n[d] as number;
      t.s += shard.s[d] as number;
      t.ss += shard.ss[d] as number;
      totals.set(id, t);
    });
  }
  const ids = [...totals.keys()].sort(compareCodePoints);
  const rows = ids.map((id) => totals.get(id) as { n: number; s: number; ss: number });
  return documentStats({
    ids,
    n: rows.map((r) => r.n),
    s: rows.map((r) => r.s),
    ss: rows.map((r) => r.ss),
    binary,
    min: shards.length === 0 ? null : min,
    max: shards.length === 0 ? null : max,
  });
}

/** Orders strings by code point, as DuckDB and Python do (not by locale). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
