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

/** An id that is missing: null, empty or blank (SQL: `x IS NULL OR trim(x) = ''`). */
export function isMissingId(id: unknown): boolean {
  return id === undefined || id === null || String(id).trim() === "";
}

/** A metric value that is missing, NaN or infinite (SQL: `x IS NULL OR NOT isfinite(x)`). */
export function isBadValue(x: number | null | undefined): boolean {
  return x === undefined || x === null || !Number.isFinite(x);
}
