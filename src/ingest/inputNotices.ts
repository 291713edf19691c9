import type { MetricAggregates } from "./resultsTable.js";
import { type BadRowContext, firstRowWhere } from "./validateRows.js";

/** At most this share of rows off 0/1 makes a column "0/1 except for a few rows" (a typo?). */
const NEARLY_BINARY_SHARE = 0.01;

/** `odd` rows of `total` off 0/1: some, but few enough to be typos rather than scores. */
export function nearlyBinary(odd: number, total: number): boolean {
  return odd > 0 && odd <= NEARLY_BINARY_SHARE * total;
}

/**
 * A column of 0/1 values but for a few rows is analysed as a score (no rate, no logit): say
 * so, naming the first such line, since a single 2 or −1 is more often a typo than a score.
 * `odd[i]` and `total` count the rows off 0/1 and all rows.
 */
export async function nearlyBinaryNotices(
  c: BadRowContext,
  metrics: readonly string[],
  odd: readonly number[],
  total: number,
): Promise<string[]> {
  const notices: string[] = [];
  for (const [i, metric] of metrics.entries()) {
    const k = odd[i] ?? 0;
    if (!nearlyBinary(k, total)) continue;
    const first = await firstRowWhere(c, `v${i} <> 0 AND v${i} <> 1`);
    notices.push(
      `${c.file}${first ? ` ${first.where}` : ""}: column ${metric} is 0/1 in all but ${k} of ${total} rows, so it is analysed as a score, not a 0/1 rate; if ${k === 1 ? "that row is a typo" : "those rows are typos"}, fix ${k === 1 ? "it" : "them"} and re-run`,
    );
  }
  return notices;
}

/** Ids equal but for surrounding spaces are two documents to DuckDB; likely one to the user. */
export function spacedIdNotices(
  groups: readonly MetricAggregates[],
  file: string,
  documentColumn: string,
): string[] {
  const notices: string[] = [];
  const seen = new Set<string | null>();
  for (const group of groups) {
    if (seen.has(group.system)) continue;
    seen.add(group.system);
    // Two ids that differ only by spaces: one of them has spaces, so only those ids' trimmed
    // forms can clash (most files have none, and are done after one pass).
    const ids = group.stats.ids;
    const spaced = new Set(ids.filter((id) => id !== id.trim()).map((id) => id.trim()));
    if (spaced.size === 0) continue;
    const byTrimmed = new Map<string, string[]>();
    for (const id of ids) {
      const key = id.trim();
      if (!spaced.has(key)) continue;
      const same = byTrimmed.get(key);
      if (same) same.push(id);
      else byTrimmed.set(key, [id]);
    }
    const clashes = [...byTrimmed.values()].filter((ids) => ids.length > 1);
    const first = clashes[0];
    if (first) {
      notices.push(
        `${file}: column ${documentColumn} has ids that differ only by surrounding spaces (${first.map((id) => JSON.stringify(id)).join(" and ")}${clashes.length > 1 ? `, and ${clashes.length - 1} more such set${clashes.length > 2 ? "s" : ""}` : ""}); they are counted as different documents — remove the spaces if they are one`,
      );
    }
  }
  return notices;
}

/**
 * A file read without a system selection whose `system` column names several systems is
 * analysed one system at a time, never pooled: say so, since the user did not ask for it.
 * `column` is that column when the split was not asked for (null otherwise).
 */
export function systemsSplitNotices(
  groups: readonly MetricAggregates[],
  column: string | null,
  file: string,
): string[] {
  if (column === null) return [];
  const systems = [...new Set(groups.map((g) => g.system))];
  if (systems.length < 2) return [];
  return [
    `${file}: column ${column} names ${systems.length} systems (${systems.join(", ")}); each is analysed on its own, never pooled — choose one with \`system\``,
  ];
}
