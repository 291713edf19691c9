/**
 * What a valid result row is, defined once: every id is present and not blank, every metric
 * value is a finite number. In-memory rows are tested here; files and databases test the same
 * rules in SQL, rendered per dialect by ingest/sql/rowConditions.ts.
 */
export const ROW_RULES = {
  document: { kind: "id", need: "every row needs a document id" },
  system: { kind: "id", need: "every row needs a system" },
  query: { kind: "id", need: "every row needs a query id" },
  label: { kind: "id", need: "the design needs it for every document" },
  metric: { kind: "value", need: "every result needs a finite value" },
} as const;

export type RowField = keyof typeof ROW_RULES;

/**
 * An id that is missing: null, empty or blank. SQL renders it as `x IS NULL OR trim(x) = ''`,
 * whose trim strips spaces only; the file readers test the ids they read with this function,
 * the databases' statement with the SQL (a tab-only id passes there).
 */
export function isMissingId(id: unknown): boolean {
  if (id === undefined || id === null) return true;
  const text = String(id);
  // A blank id starts with whitespace, so most ids are not trimmed (10⁶ ids per file).
  return text.length === 0 || (/\s/.test(text.charAt(0)) && text.trim() === "");
}

/** A metric value that is missing, NaN or infinite (SQL: `x IS NULL OR NOT isfinite(x)`). */
export function isBadValue(x: number | null | undefined): boolean {
  return x === undefined || x === null || !Number.isFinite(x);
}
