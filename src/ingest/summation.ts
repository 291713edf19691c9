import { duckDbMessage } from "./duckdb.js";

/**
 * How a metric's per-document sums are added. Every reader follows one policy: sums must not
 * depend on how DuckDB splits rows between threads, so identical input gives identical bits.
 * - "integer": whole numbers as doubles; every partial sum is an integer below 2⁵³, so exact
 *   in any order.
 * - "decimal": each value rounded to 18 decimals, added exactly in DECIMAL(38, 18).
 * - "double": values too large for DECIMAL (|Σx²| ≥ 10²⁰), added in double precision in a fixed
 *   order (file order on one thread, or the order given).
 * The SQL of each mode is perDocumentSums.ts's, for files and databases alike; in-memory rows
 * get the same bits from core's documentStatsFromRows.
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

/** Whether a DuckDB failure is a DECIMAL overflow (then the "double" mode applies). */
export function isDecimalOverflow(error: unknown): boolean {
  const message = duckDbMessage(error);
  return /out of range|overflow|to DECIMAL/i.test(message) && !/CSV Error/.test(message);
}

/**
 * Integer-mode sums are exact when every value is whole and Σx² stays below 2⁵³ (summed over
 * the documents); otherwise aggregateDocuments sums the metric again in DECIMAL.
 */
export function integerSumsExact(metric: {
  readonly whole: Float64Array;
  readonly ss: Float64Array;
}): boolean {
  let squares = 0;
  for (let d = 0; d < metric.whole.length; d++) {
    if (metric.whole[d] === 0) return false;
    squares += Math.abs(metric.ss[d] as number);
  }
  return squares < 2 ** 53;
}
