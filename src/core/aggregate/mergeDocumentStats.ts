import type { DocumentStats } from "../types.js";
import { documentStats } from "./documentStats.js";

/**
 * Adds the sufficient statistics of shards: n, s and ss are sums, so a per-query file split
 * into shards and aggregated separately merges to exactly the aggregates of the whole file
 * (up to floating-point addition order). Documents are ordered by id (code-point order).
 *
 * @example mergeDocumentStats([documentStats({ ids: ["a"], n: [2], s: [1] }), documentStats({ ids: ["a", "b"], n: [3, 1], s: [2, 1] })])
 *   // => { ids: ["a", "b"], n: [5, 1], s: [3, 1] }
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

/**
 * Orders strings by code point, as DuckDB (UTF-8 bytes) and Python do (not by locale). JS's own
 * `<` compares UTF-16 code units, which differs where a surrogate (U+D800–DFFF, the halves of a
 * character above U+FFFF) meets a unit in U+E000–FFFF: "😀" < "ｚ" in UTF-16, but U+1F600 >
 * U+FF5A. At the first differing unit, when both are ≥ U+D800, surrogates are moved above
 * U+E000–FFFF (ICU's code-point-order fix-up); elsewhere the unit order is the code-point order.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}
