import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";
import { queryRows } from "./duckdb.js";
import type { InputFormat } from "./inputFormat.js";

interface BadRowContext {
  readonly connection: DuckDBConnection;
  readonly source: string;
  readonly file: string;
  readonly format: InputFormat;
}

/**
 * The first row matching `condition` (one thread, file order) as "line N" (text formats,
 * counting the header) or "row N" (Parquet), with how many rows match; null when none does.
 */
export async function firstRowWhere(
  c: BadRowContext,
  condition: string,
): Promise<{ readonly where: string; readonly row: number; readonly count: number } | null> {
  await c.connection.run("SET threads = 1");
  const rows = await queryRows(
    c.connection,
    `SELECT r FROM (SELECT row_number() OVER () AS r, * FROM ${c.source}) WHERE ${condition} ORDER BY r LIMIT 1`,
  );
  const count = await queryRows(
    c.connection,
    `SELECT count(*) AS k FROM ${c.source} WHERE ${condition}`,
  );
  const r = rows[0]?.r as number | undefined;
  if (r === undefined) return null;
  const where =
    c.format === "parquet" ? `row ${r}` : c.format === "jsonl" ? `line ${r}` : `line ${r + 1}`;
  return { where, row: r, count: (count[0]?.k as number | undefined) ?? 0 };
}

/**
 * Finds the first row matching `condition` (error path only) and returns an error naming its
 * line or row, and how many more rows share the problem.
 */
export async function locateBadRow(
  c: BadRowContext,
  condition: string,
  problem: string,
  column: string,
): Promise<RagciError> {
  const found = await firstRowWhere(c, condition);
  if (found === null)
    return new RagciError("invalid-value", `${c.file}: ${problem}`, { file: c.file, column });
  const k = found.count;
  const others = k > 1 ? ` (and ${k - 1} more row${k > 2 ? "s" : ""})` : "";
  return new RagciError("invalid-value", `${c.file} ${found.where}: ${problem}${others}`, {
    file: c.file,
    row: found.row,
    column,
  });
}
