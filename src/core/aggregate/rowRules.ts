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
 * The characters a blank id is made of, as code points: what JavaScript's `\s` and `trim`
 * treat as space (ECMA-262's WhiteSpace and LineTerminator: tab, line feed, vertical tab, form
 * feed, carriage return, space, no-break space, the other Unicode space separators, U+2028,
 * U+2029 and the byte order mark). Spelt out so that every SQL dialect tests this very set
 * (ingest/sql/dialects.ts's `blank`); a SQL trim strips spaces only.
 */
export const BLANK_CODE_POINTS: readonly number[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

const BLANK = new Set(BLANK_CODE_POINTS.map((c) => String.fromCharCode(c)));

/**
 * An id that is missing: null, empty, or blank (made only of BLANK_CODE_POINTS: spaces, tabs,
 * line breaks, no-break spaces, …). In-memory rows are tested with this function; files and
 * databases with its SQL (rowConditions.ts), the same set in every dialect.
 */
export function isMissingId(id: unknown): boolean {
  if (id === undefined || id === null) return true;
  const text = String(id);
  // A blank id starts with a blank character, so most ids are decided by their first (10⁶ ids
  // per file).
  if (text.length === 0) return true;
  if (!BLANK.has(text.charAt(0))) return false;
  for (const character of text) if (!BLANK.has(character)) return false;
  return true;
}

/** A metric value that is missing, NaN or infinite (SQL: `x IS NULL OR NOT isfinite(x)`). */
export function isBadValue(x: number | null | undefined): boolean {
  return x === undefined || x === null || !Number.isFinite(x);
}
