/**
 * How the cells statement (facetCellsSql.ts) counts a cell's distinct trial labels, which its
 * check compares with the cell's rows (a trial twice, or one without a label, makes rows >
 * trials):
 * - "distinct": count(DISTINCT t), every dialect's. DuckDB keeps a hash entry per row for it:
 *   on bench/facets-ingest.mjs (10⁷ rows, 10⁵ cells) the statement took 1.3 GB and 2–3 times
 *   the CPU of the same GROUP BY without it (docs/performance.md, "Noise facets").
 * - "labels" (DuckDB): the number of distinct values of the cell's list of labels, the same
 *   number (NULLs left out, equal bytes equal) from a list of the cell's labels (16 bytes each).
 * - "integers" (DuckDB, a trial column of integers): when a cell's trials span fewer than
 *   TRIAL_SPAN integers, each one sets bit (trial mod TRIAL_SPAN) of a 126-bit mask, which is
 *   one to one on that span, so the set bits count the distinct trials exactly with 16 bytes
 *   per cell; an integer column's labels (its values as text) are equal when the integers are.
 *   A cell that spans more comes back NULL, and the caller counts again with "labels".
 */
export type TrialCount = "distinct" | "labels" | "integers";

/** Integers a cell's trials may span for "integers": two BIGINTs' bits below their sign bits. */
export const TRIAL_SPAN = 126;

/** The trial labels as integers, a column the "integers" count reads (see trialRowsSql). */
const TRIAL_INTEGER = "ragci_trial";

/** `rows` (facetCellsSql's input) with what `kind` reads besides its columns. */
export function trialRowsSql(kind: TrialCount, rows: string): string {
  return kind === "integers"
    ? // TRY_CAST: should a label not be an integer after all (the file read with other types
      // than its sample), the cell's counts of labels and integers differ and it is counted again.
      `SELECT *, TRY_CAST(t AS BIGINT) AS ${TRIAL_INTEGER} FROM (\n  ${rows}\n) AS ragci_trial_rows`
    : rows;
}

/** The aggregate giving a cell's distinct trial labels (NULL: count again with "labels"). */
export function trialCountSql(kind: TrialCount): string {
  switch (kind) {
    case "distinct":
      return "count(DISTINCT t)";
    case "labels":
      // FILTER: without a trial column (t NULL) the lists stay empty.
      return "coalesce(list_unique(list(t) FILTER (WHERE t IS NOT NULL)), 0)";
    case "integers": {
      const i = TRIAL_INTEGER;
      const bit = `CAST(((${i} % ${TRIAL_SPAN}) + ${TRIAL_SPAN}) % ${TRIAL_SPAN} AS INTEGER)`;
      // Two BIGINT masks of 63 bits (1 << 63 overflows a BIGINT): on bench/facets-ingest.mjs
      // the statement took 2.5–2.9 s of CPU with them, 3.0–3.4 s with one HUGEINT mask.
      const low = `bit_count(bit_or(CASE WHEN ${bit} < 63 THEN CAST(1 AS BIGINT) << ${bit} ELSE 0 END))`;
      const high = `bit_count(bit_or(CASE WHEN ${bit} >= 63 THEN CAST(1 AS BIGINT) << (${bit} - 63) ELSE 0 END))`;
      // HUGEINT: max − min of two BIGINTs can overflow BIGINT.
      return `CASE WHEN count(t) = 0 THEN 0 WHEN count(${i}) = count(t) AND CAST(max(${i}) AS HUGEINT) - min(${i}) < ${TRIAL_SPAN} THEN ${low} + ${high} END`;
    }
  }
}

/** DuckDB's integer types whose values a BIGINT holds (a trial column of these can use "integers"). */
const BIGINT_VALUES = new Set([
  "TINYINT",
  "SMALLINT",
  "INTEGER",
  "BIGINT",
  "UTINYINT",
  "USMALLINT",
  "UINTEGER",
]);

/** The count for a file's trial column of DuckDB type `type` (null: no trial column). */
export function trialCountFor(type: string | null): TrialCount {
  return type !== null && BIGINT_VALUES.has(type) ? "integers" : "labels";
}
