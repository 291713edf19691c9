import { BLANK_CODE_POINTS } from "../../core/aggregate/rowRules.js";
import { optionRef, RagciError } from "../../core/errors.js";

/** The SQL dialects `ragci sql` writes. */
export const DIALECTS = [
  "duckdb",
  "postgres",
  "bigquery",
  "snowflake",
  "clickhouse",
  "trino",
  "databricks",
] as const;

export type DialectName = (typeof DIALECTS)[number];

/** What differs between the dialects in the SQL ragci writes; everything else is shared. */
export interface Dialect {
  readonly name: DialectName;
  /** A column or table name part, quoted. */
  readonly identifier: (name: string) => string;
  /** An output column's name: kept exactly as written (system, metric, doc, n, s, ss, min, max). */
  readonly alias: (name: string) => string;
  /** A string literal. */
  readonly string: (value: string) => string;
  /** The text and double types of CAST. */
  readonly text: string;
  readonly double: string;
  /**
   * `message` (NULL when every check passes, else "ragci: 3 rows have …") cast to an integer:
   * NULL when it is NULL, and otherwise a failed cast, whose error quotes the message.
   */
  readonly failCast: (message: string) => string;
  /**
   * Σx of a double expression, added exactly where the dialect can, returned as a double. `x` is
   * finite or NULL (perDocumentSql.ts): every dialect's exact type refuses NaN and ±∞.
   */
  readonly exactSum: (x: string) => string;
  /**
   * True when the text `x` is empty or made only of blank characters (core's rowRules.ts
   * BLANK_CODE_POINTS, the set JavaScript's trim strips): a regular expression of that set,
   * the characters built from their code points so that the printed SQL stays ASCII.
   */
  readonly blank: (x: string) => string;
  /** True when the double `x` is neither NaN nor ±∞. */
  readonly finite: (x: string) => string;
  /** A name resolves to an alias of the same SELECT before a column (aliasShadowing.ts). */
  readonly aliasesHideColumns?: boolean;
}

const doubleQuoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const backquoted = (name: string) => `\`${name.replaceAll("\\", "\\\\").replaceAll("`", "\\`")}\``;
/** Standard SQL: a quote is doubled, a backslash is an ordinary character. */
const standardString = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** Dialects where a backslash escapes in string literals: both are escaped. */
const backslashString = (value: string) =>
  `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

/** DECIMAL(38, 18): exact for |x| < 10¹⁰ (x² < 10²⁰), the widest exact type of these dialects. */
const decimalSum = (decimal: string, double: string) => (x: string) =>
  `CAST(sum(CAST(${x} AS ${decimal})) AS ${double})`;

/** The blank characters as a concatenation of `chr(code point)`: `chr(9) || chr(10) || …`. */
const blankChars = (chr: string) => BLANK_CODE_POINTS.map((c) => `${chr}(${c})`).join(" || ");

/** ClickHouse: each blank character's UTF-8 bytes as literal escapes, e.g. \xC2\xA0. */
const utf8Escaped = (c: number) =>
  [...Buffer.from(String.fromCharCode(c), "utf8")]
    .map((byte) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`)
    .join("");

/** Databricks: each blank character as a string literal's \uXXXX escape. */
const unicodeEscaped = (c: number) => `\\u${c.toString(16).toUpperCase().padStart(4, "0")}`;

const dialects: Readonly<Record<DialectName, Dialect>> = {
  // As ragci's own file path (summation.ts): each value rounded to 18 decimals, added exactly.
  duckdb: {
    name: "duckdb",
    alias: doubleQuoted,
    blank: (x) => `regexp_full_match(${x}, '[' || ${blankChars("chr")} || ']*')`,
    identifier: doubleQuoted,
    string: standardString,
    text: "VARCHAR",
    double: "DOUBLE",
    failCast: (m) => `CAST(${m} AS INTEGER)`,
    exactSum: decimalSum("DECIMAL(38, 18)", "DOUBLE"),
    finite: (x) => `isfinite(${x})`,
  },
  // numeric is exact at any size. Through text: float8 → numeric keeps only 15 digits, while
  // float8 → text is the shortest form that reads back as the same double.
  postgres: {
    name: "postgres",
    alias: doubleQuoted,
    blank: (x) => `${x} ~ ('^[' || ${blankChars("chr")} || ']*$')`,
    identifier: doubleQuoted,
    string: standardString,
    text: "text",
    double: "double precision",
    failCast: (m) => `CAST(${m} AS integer)`,
    exactSum: (x) => `CAST(sum(CAST(CAST(${x} AS text) AS numeric)) AS double precision)`,
    finite: (x) =>
      `${x} NOT IN (CAST('NaN' AS double precision), CAST('Infinity' AS double precision), CAST('-Infinity' AS double precision))`,
  },
  // BIGNUMERIC: 38 decimals and 76 digits, exact for any metric ragci sees.
  bigquery: {
    name: "bigquery",
    alias: backquoted,
    blank: (x) =>
      `REGEXP_CONTAINS(${x}, CONCAT('^[', CODE_POINTS_TO_STRING([${BLANK_CODE_POINTS.join(", ")}]), ']*$'))`,
    identifier: backquoted,
    string: backslashString,
    text: "STRING",
    double: "FLOAT64",
    failCast: (m) => `CAST(${m} AS INT64)`,
    exactSum: (x) => `CAST(SUM(CAST(${x} AS BIGNUMERIC)) AS FLOAT64)`,
    finite: (x) => `NOT IS_NAN(${x}) AND NOT IS_INF(${x})`,
  },
  snowflake: {
    name: "snowflake",
    alias: doubleQuoted,
    // REGEXP_LIKE matches the whole text.
    blank: (x) => `REGEXP_LIKE(${x}, '[' || ${blankChars("CHR")} || ']*')`,
    // Unquoted names resolve case-insensitively (Snowflake stores them upper case), so a plain
    // name stays unquoted; any other is quoted and then case-sensitive.
    identifier: (name) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : doubleQuoted(name)),
    string: backslashString,
    text: "VARCHAR",
    double: "DOUBLE",
    failCast: (m) => `CAST(${m} AS INTEGER)`,
    exactSum: decimalSum("NUMBER(38, 18)", "DOUBLE"),
    finite: (x) =>
      `${x} NOT IN (CAST('NaN' AS DOUBLE), CAST('inf' AS DOUBLE), CAST('-inf' AS DOUBLE))`,
  },
  // Decimal256(18): 76 digits, exact at any size. Ids and values are cast to Nullable types:
  // ClickHouse fails a CAST of NULL to a plain type ("Cannot convert NULL value to non-Nullable
  // type"), so with String and Float64 a NULL id or value would stop the statement with that
  // error before the row checks could name it.
  clickhouse: {
    name: "clickhouse",
    alias: doubleQuoted,
    // Alternatives of byte sequences, not a bracket of characters: they match whether re2 reads
    // the pattern as UTF-8 or as bytes.
    blank: (x) => `match(${x}, '^(?:${BLANK_CODE_POINTS.map(utf8Escaped).join("|")})*$')`,
    identifier: doubleQuoted,
    string: backslashString,
    text: "Nullable(String)",
    double: "Nullable(Float64)",
    // Not CAST(m AS Nullable(Int32)): ClickHouse 18.16 makes that NULL for any text, which
    // would pass bad rows. The message or '0' cast to Int32 fails on the message in every
    // version, and nullIf turns the passing 0 back into NULL.
    failCast: (m) => `nullIf(CAST(coalesce(${m}, '0') AS Int32), 0)`,
    aliasesHideColumns: true,
    exactSum: (x) => `toFloat64(sum(toDecimal256(${x}, 18)))`,
    finite: (x) => `isFinite(${x})`,
  },
  trino: {
    name: "trino",
    alias: doubleQuoted,
    // \\A and \\z: the whole text (Joni's ^ and $ also match at line breaks).
    blank: (x) => `regexp_like(${x}, '\\A[' || ${blankChars("chr")} || ']*\\z')`,
    identifier: doubleQuoted,
    string: standardString,
    text: "VARCHAR",
    double: "DOUBLE",
    failCast: (m) => `CAST(${m} AS INTEGER)`,
    exactSum: decimalSum("DECIMAL(38, 18)", "DOUBLE"),
    finite: (x) => `is_finite(${x})`,
  },
  // Databricks SQL (ANSI mode, its default): a failed CAST is an error, as the checks need.
  databricks: {
    name: "databricks",
    alias: backquoted,
    // \\z, not $ (which Java also matches before a final line break); \\uXXXX read by the parser.
    blank: (x) => `${x} RLIKE '^[${BLANK_CODE_POINTS.map(unicodeEscaped).join("")}]*\\\\z'`,
    identifier: backquoted,
    string: backslashString,
    text: "STRING",
    double: "DOUBLE",
    failCast: (m) => `CAST(${m} AS INT)`,
    exactSum: decimalSum("DECIMAL(38, 18)", "DOUBLE"),
    finite: (x) => `NOT isnan(${x}) AND abs(${x}) <> CAST('Infinity' AS DOUBLE)`,
  },
};

/** @throws RagciError naming the dialects when `name` is not one */
export function dialect(name: string): Dialect {
  const key = name.toLowerCase() === "postgresql" ? "postgres" : name.toLowerCase();
  const found = (dialects as Record<string, Dialect | undefined>)[key];
  if (!found) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("dialect")} ${name}: use one of ${DIALECTS.join(", ")}`,
      { option: "dialect" },
    );
  }
  return found;
}

/** A table name `a.b.c`: each part quoted (a name with a dot in it needs --sql). */
export function tableName(d: Dialect, name: string): string {
  const parts = name.split(".");
  if (parts.some((p) => p.trim() === "")) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("table")} ${name}: give a table name such as results or schema.results (for anything else, ${optionRef("sql")} "SELECT …")`,
      { option: "table" },
    );
  }
  return parts.map(d.identifier).join(".");
}
