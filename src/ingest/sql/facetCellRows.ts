import { RagciError } from "../../core/errors.js";
import type { CellRows } from "../readFacetCells.js";
import type { DatabaseRow } from "./databaseConnection.js";

/** A client's number (a JavaScript number, a bigint, or text as PostgreSQL's numeric comes). */
function numberOf(value: unknown, column: string, source: string): number {
  const x =
    typeof value === "number"
      ? value
      : typeof value === "bigint" || typeof value === "string"
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(x))
    throw new RagciError(
      "unreadable-input",
      `${source}: the database returned ${String(value)} for ${column} of a facet cell, not a number; this is a bug in ragci's statement for this database`,
    );
  return x;
}

const textOf = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/**
 * The rows of facetCellsWarehouseSql.ts, as readFacetCells reads a file's cells: ids and facet
 * labels as text (NULL where absent), counts and sums as doubles.
 */
export function facetCellRows(
  rows: readonly DatabaseRow[],
  metrics: number,
  source: string,
): CellRows {
  const column = (name: string) => Float64Array.from(rows, (r) => numberOf(r[name], name, source));
  const ids = (name: string) => rows.map((r) => textOf(r[name]));
  return {
    sys: ids("sys"),
    doc: ids("doc"),
    q: ids("q"),
    j: ids("j"),
    w: ids("w"),
    rows: column("rows"),
    trials: column("trials"),
    nulls: column("nulls"),
    perMetric: Array.from({ length: metrics }, (_, i) => ({
      n: column(`n${i}`),
      s: column(`s${i}`),
      ss: column(`w${i}`),
    })),
  };
}
