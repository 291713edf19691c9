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
 * Finds the first row matching `condition` (error path only: one thread, file order) and
 * returns an error naming its line (text formats, counting the header) or row (Parquet).
 */
export async function locateBadRow(
  c: BadRowContext,
  condition: string,
  problem: string,
  column: string,
): Promise<RagciError> {
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
  const k = (count[0]?.k as number | undefined) ?? 0;
  const others = k > 1 ? ` (and ${k - 1} more row${k > 2 ? "s" : ""})` : "";
  if (r === undefined)
    return new RagciError("invalid-value", `${c.file}: ${problem}`, { file: c.file, column });
  const where =
    c.format === "parquet" ? `row ${r}` : c.format === "jsonl" ? `line ${r}` : `line ${r + 1}`;
  return new RagciError("invalid-value", `${c.file} ${where}: ${problem}${others}`, {
    file: c.file,
    row: r,
    column,
  });
}
