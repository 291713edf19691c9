import { optionRef } from "../core/errors.js";
import { groupedInteger } from "../core/groupedInteger.js";
import { type QueryProgress, queryRows, withMemoryLimit, withQueryProgress } from "./duckdb.js";
import { sqlIdentifier } from "./inputFormat.js";
import { findColumn, QUERY_COLUMN_CANDIDATES } from "./resolveColumns.js";
import { duringScan } from "./scanGate.js";
import type { BadRowContext } from "./validateRows.js";

/**
 * Above this many rows, a query id column found by its usual name (query_id, query, …) is not
 * checked for repeats unless it is named (--query), and the report says so. The check is a
 * second hash aggregation with one group per row: on the 10⁷-row CSV of bench/ingest.mjs it
 * costs 1.1–1.2 s in DuckDB alone, whatever the SQL (a separate GROUP BY, GROUPING SETS,
 * count(DISTINCT) per document, 64-bit hashes), twice the per-document GROUP BY (0.5–0.6 s).
 * At 2·10⁶ rows it costs about 0.2 s.
 */
export const QUERY_CHECK_ROW_LIMIT = 2_000_000;

/** DuckDB's memory budget for the check (see withMemoryLimit). */
const QUERY_CHECK_MEMORY = "512MiB";

/** Which query id column to check for repeats, if any, and when. */
export interface QueryCheck {
  /** The column, named (--query) or found by its usual name; null when there is none. */
  readonly column: string | null;
  /** Named by the user: checked whatever the number of rows. */
  readonly named: boolean;
  /** A found column is checked only up to this many rows. */
  readonly rowLimit: number;
}

/** The query id column the check looks at, when it was not named: the first usual name. */
export function foundQueryColumn(
  columns: readonly string[],
  excluded: readonly string[],
): string | null {
  const query = findColumn(QUERY_COLUMN_CANDIDATES, columns);
  return query === null || excluded.includes(query) ? null : query;
}

/**
 * With a query id column, each query should give one result per system: a repeated id (a
 * duplicated row?) counts that query twice. Reported, not refused. Above the row limit an
 * unnamed column is not checked, and the notice says that instead. `c.source` is the file
 * itself: the query column is not among the normalised ones.
 */
export async function queryIdNotices(
  c: BadRowContext,
  check: QueryCheck,
  systemColumn: string | null,
  rows: number,
  onProgress?: QueryProgress,
): Promise<string[]> {
  const query = check.column;
  if (query === null) return [];
  if (!check.named && rows > check.rowLimit) {
    return [
      `${c.file}: query ids (column ${query}) were not checked for repeats: ${groupedInteger(rows)} rows, more than the ${groupedInteger(check.rowLimit)} checked by default; pass ${optionRef("query")} ${query} to check them`,
    ];
  }
  return duringScan(() =>
    withQueryProgress(c.connection, onProgress, () =>
      withMemoryLimit(c.connection, QUERY_CHECK_MEMORY, () =>
        repeatedQueryNotices(c, query, systemColumn),
      ),
    ),
  );
}

async function repeatedQueryNotices(
  c: BadRowContext,
  query: string,
  systemColumn: string | null,
): Promise<string[]> {
  const q = `CAST(${sqlIdentifier(query)} AS VARCHAR)`;
  const system = systemColumn ? `CAST(${sqlIdentifier(systemColumn)} AS VARCHAR)` : "NULL";
  // First the 64-bit hashes of (query, system): grouping integers is a third faster than
  // grouping the ids. Equal pairs have equal hashes, so no repeated hash means no repeated
  // query; only the hashes that repeat (a repeated query, or a rare collision) are then
  // grouped by the ids themselves. They are kept in a table, so the file is grouped by hash
  // once (OR REPLACE: withMemoryLimit runs this again after an out-of-memory error).
  const key = `hash(${q}, ${system})`;
  try {
    await c.connection.run(
      `CREATE OR REPLACE TEMP TABLE ragci_repeated_hashes AS SELECT ${key} AS h FROM ${c.source} GROUP BY h HAVING count(*) > 1`,
    );
    const candidates = await queryRows(
      c.connection,
      "SELECT count(*) AS k FROM ragci_repeated_hashes",
    );
    if (Number(candidates[0]?.k ?? 0) === 0) return [];
    const repeated = await queryRows(
      c.connection,
      `SELECT q, system, k, count(*) OVER () AS repeatedIds FROM (SELECT ${q} AS q, ${system} AS system, count(*) AS k FROM ${c.source} WHERE ${key} IN (SELECT h FROM ragci_repeated_hashes) GROUP BY ALL HAVING count(*) > 1) ORDER BY system, q LIMIT 1`,
    );
    const first = repeated[0];
    if (!first) return [];
    const more = Number(first.repeatedIds) - 1;
    return [
      `${c.file}: ${first.q === null ? "an empty query id" : `query id ${first.q}`} appears ${first.k} times${first.system === null ? "" : ` for system ${first.system}`}${more > 0 ? ` (and ${more} more query ids repeat)` : ""} in column ${query}; each query is counted as many times as it appears — remove duplicated rows if that is not intended`,
    ];
  } finally {
    await c.connection.run("DROP TABLE IF EXISTS ragci_repeated_hashes");
  }
}
