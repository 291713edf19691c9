import { RagciError } from "../core/errors.js";
import { groupedInteger } from "../core/groupedInteger.js";
import { queryRows, unreadable, withDuckDb } from "./duckdb.js";
import { type InputFormat, sqlIdentifier, tableFunction } from "./inputFormat.js";

/** One shard of a results table: where it is, how it is named, and its id columns. */
export interface Shard {
  readonly path: string;
  readonly file: string;
  readonly format: InputFormat;
  /** The query id column; null: the shard has none, and overlaps cannot be seen. */
  readonly query: string | null;
  readonly system: string | null;
}

/**
 * Shards are parts of one table: a query of one system in two of them would be counted twice
 * once their per-document sums are added. Reads the shards' (system, query) ids once more
 * and refuses the first query found in two shards. Shards without a query id column cannot
 * be checked; the returned notice says so.
 *
 * @throws RagciError "invalid-value" naming the query, the system and the two shards
 */
export async function requireDisjointShards(
  shards: readonly Shard[],
  threads?: number,
): Promise<string[]> {
  if (shards.length < 2) return [];
  const unchecked = shards.filter((s) => s.query === null).map((s) => s.file);
  if (unchecked.length > 0)
    return [
      `${unchecked.join(", ")}: no query id column, so the shards were not checked for queries given twice; add query ids (or name them with \`query\`) to check them`,
    ];
  const parts = shards.map((s, i) => {
    const q = `CAST(${sqlIdentifier(s.query as string)} AS VARCHAR)`;
    const sys = s.system ? `CAST(${sqlIdentifier(s.system)} AS VARCHAR)` : "NULL";
    return `SELECT ${q} AS q, ${sys} AS sys, ${i} AS shard FROM ${tableFunction(s.path, s.format)}`;
  });
  const found = await withDuckDb(
    async (connection) =>
      queryRows(
        connection,
        `SELECT q, sys, min(shard) AS a, max(shard) AS b, count(*) OVER () AS repeated FROM (${parts.join(" UNION ALL ")}) GROUP BY q, sys HAVING count(DISTINCT shard) > 1 ORDER BY sys, q LIMIT 1`,
      ).catch((error) => {
        throw unreadable(shards.map((s) => s.file).join(" + "), error);
      }),
    threads,
  );
  const first = found[0];
  if (!first) return [];
  const a = shards[Number(first.a)] as Shard;
  const b = shards[Number(first.b)] as Shard;
  const more = Number(first.repeated) - 1;
  throw new RagciError(
    "invalid-value",
    `${a.file} and ${b.file} both hold query ${first.q}${first.sys === null ? "" : ` of system ${first.sys}`}${more > 0 ? ` (and ${groupedInteger(more)} more queries)` : ""}; shards are added per document, so it would be counted twice: remove it from one of them`,
    { file: b.file },
  );
}
