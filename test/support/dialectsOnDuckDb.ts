import type { DuckDBConnection } from "@duckdb/node-api";
import { BLANK_CODE_POINTS } from "../../src/core/aggregate/rowRules.js";
import { type DialectName, dialect } from "../../src/ingest/sql/dialects.js";

/** The pattern of a blank id with its characters as they are (what DuckDB's re2 reads). */
const BLANK_PATTERN = `'[${String.fromCharCode(...BLANK_CODE_POINTS)}]*'`;

/**
 * A dialect's blank test of column X split around X: ClickHouse's byte escapes and Databricks'
 * \uXXXX escapes are read by their parsers, not by DuckDB's, so the pattern is swapped for
 * BLANK_PATTERN (the set is the same: rowRules.ts's code points).
 */
function blankOf(name: DialectName): readonly [string, string] {
  const [before, after] = dialect(name).blank("ragci_x").split("ragci_x") as [string, string];
  return [before, after];
}

/**
 * What each dialect's SQL needs to run on DuckDB: statements that give DuckDB the dialect's
 * function and type names (macros, CREATE TYPE), and rewrites of what DuckDB cannot parse
 * (backquoted names, ClickHouse's Nullable(T) and Snowflake's NUMBER(p, s) types). Run this way
 * the statements' logic is checked — their CTEs, joins, checks and sums — but not each
 * warehouse's own semantics (ClickHouse's refusal to CAST a NULL to a plain type, BigQuery's
 * BIGNUMERIC, …), which only the warehouse has. postgres runs as written, except that DuckDB's
 * NUMERIC is DECIMAL(18, 3), so its sums are good only to 3 decimals here.
 */
const shims: Readonly<
  Record<
    DialectName,
    { readonly setup: readonly string[]; readonly adapt: (sql: string) => string }
  >
> = {
  duckdb: { setup: [], adapt: (sql) => sql },
  postgres: { setup: [], adapt: (sql) => sql },
  trino: {
    setup: [
      "CREATE MACRO is_finite(x) AS isfinite(x)",
      "CREATE MACRO regexp_like(x, p) AS regexp_matches(x, p)",
    ],
    adapt: (sql) => sql,
  },
  snowflake: {
    // Snowflake's REGEXP_LIKE matches the whole text.
    setup: ["CREATE MACRO REGEXP_LIKE(x, p) AS regexp_full_match(x, p)"],
    adapt: (sql) => sql.replaceAll("NUMBER(38, 18)", "DECIMAL(38, 18)"),
  },
  databricks: {
    setup: [],
    adapt: (sql) =>
      sql.replaceAll(blankOf("databricks")[1], ` SIMILAR TO ${BLANK_PATTERN}`).replaceAll("`", '"'),
  },
  bigquery: {
    // STRING, INT64, TRIM and SUM are DuckDB's names too.
    setup: [
      "CREATE TYPE FLOAT64 AS DOUBLE",
      "CREATE TYPE BIGNUMERIC AS DECIMAL(38, 18)",
      "CREATE MACRO IS_NAN(x) AS isnan(x)",
      "CREATE MACRO IS_INF(x) AS isinf(x)",
      "CREATE MACRO REGEXP_CONTAINS(x, p) AS regexp_matches(x, p)",
      "CREATE MACRO CODE_POINTS_TO_STRING(l) AS array_to_string(list_transform(l, c -> chr(c)), '')",
    ],
    adapt: (sql) => sql.replaceAll("`", '"'),
  },
  clickhouse: {
    // String and isFinite are DuckDB's names too; Decimal256(18) becomes DECIMAL(38, 18).
    setup: [
      "CREATE TYPE Float64 AS DOUBLE",
      "CREATE MACRO toFloat64(x) AS CAST(x AS DOUBLE)",
      "CREATE MACRO toDecimal256(x, s) AS CAST(x AS DECIMAL(38, 18))",
    ],
    adapt: (sql) => {
      const [match, pattern] = blankOf("clickhouse");
      return sql
        .replaceAll(match, "regexp_full_match(")
        .replaceAll(pattern, `, ${BLANK_PATTERN})`)
        .replace(/Nullable\((\w+)\)/g, "$1");
    },
  },
};

/**
 * Prepares `connection` for one dialect's SQL (one dialect per connection: their type names
 * overlap) and returns the rewrite its statements need before DuckDB runs them.
 */
export async function dialectOnDuckDb(
  connection: DuckDBConnection,
  name: DialectName,
): Promise<(sql: string) => string> {
  const shim = shims[name];
  for (const statement of shim.setup) await connection.run(statement);
  return shim.adapt;
}
