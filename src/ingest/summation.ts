import { duckDbMessage } from "./duckdb.js";

/**
 * How a metric's per-document sums are added. Every reader follows one policy: sums must not
 * depend on how DuckDB splits rows between threads, so identical input gives identical bits.
 * - "integer": whole numbers as doubles; every partial sum is an integer below 2⁵³, so exact
 *   in any order.
 * - "decimal": each value rounded to 18 decimals, added exactly in DECIMAL(38, 18).
 * - "double": values too large for DECIMAL (|Σx²| ≥ 10²⁰), added in double precision in a fixed
 *   order (file order on one thread, or the order given).
 */
export type SumMode = "integer" | "decimal" | "double";

/**
 * What a report says about the sums: exact, or the double fallback in file order (one file's
 * rows on one thread) or in query-id order (paired rows, whose file order pairing has lost).
 */
export type Summation = "exact" | "double-single-thread" | "double-query-order";

/** DuckDB column types whose values are whole numbers (the "integer" mode's candidates). */
export const INTEGER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|BOOLEAN)$/;

/**
 * Σx and Σx² of the SQL expression `x` (a DOUBLE) under `mode`, as DOUBLE. Non-finite values
 * are left out of the decimal casts (the readers refuse them from min/max and counts).
 * `order` fixes the order of a "double" sum when the rows do not come in file order.
 */
export function sumExpressions(
  x: string,
  mode: SumMode,
  order?: string,
): { readonly s: string; readonly ss: string } {
  if (mode === "decimal") {
    const finite = `CASE WHEN isfinite(${x}) THEN ${x} END`;
    return {
      s: `sum(CAST(${finite} AS DECIMAL(38, 18)))::DOUBLE`,
      ss: `sum(CAST(${finite} * ${finite} AS DECIMAL(38, 18)))::DOUBLE`,
    };
  }
  const by = mode === "double" && order ? ` ORDER BY ${order}` : "";
  return { s: `sum(${x}${by})`, ss: `sum(${x} * ${x}${by})` };
}

/** Whether a DuckDB failure is a DECIMAL overflow (then the "double" mode applies). */
export function isDecimalOverflow(error: unknown): boolean {
  const message = duckDbMessage(error);
  return /out of range|overflow|to DECIMAL/i.test(message) && !/CSV Error/.test(message);
}
