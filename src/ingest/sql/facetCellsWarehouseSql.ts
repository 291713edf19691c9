import { optionRef, RagciError } from "../../core/errors.js";
import type { Dialect } from "./dialects.js";
import { sumSql } from "./perDocumentSums.js";
import { type SourceColumns, type SqlSource, sourceFromSql } from "./sourceRowsSql.js";

/** The columns of a faceted per-query (per-trial) table, as the user names them. */
export interface FacetSourceColumns extends Omit<SourceColumns, "query" | "label"> {
  /** The query id column (cells are per query). */
  readonly query: string;
  /** The rerun (epoch, repeat) column; null: one trial per cell. */
  readonly trial: string | null;
  /** The judge (grader, scorer) column; null: no judge facet. */
  readonly judge: string | null;
  /** The prompt-wording column; null: no variant facet. */
  readonly variant: string | null;
}

/**
 * The within-cell sum of squares Σ(x − x̄)² of `x`, never negative, with each warehouse's own
 * variance aggregate × count: PostgreSQL's var_pop over numeric is exact (its Σx and Σx² are
 * numeric, unbounded); ClickHouse's varPopStable is Welford's update (its plain varPop is the
 * one-pass Σx² − (Σx)²/n, which cancels); DuckDB's var_pop is Welford's merged by Chan's
 * formula (as facetCellsSql.ts); the others' var_pop clamped at 0, since their algorithms are
 * not documented. A cell of one value has 0.
 */
function withinSumOfSquares(d: Dialect, x: string): string {
  switch (d.name) {
    case "postgres":
      return `coalesce(var_pop(CAST(CAST(${x} AS text) AS numeric)) * count(${x}), 0)`;
    case "clickhouse":
      return `coalesce(varPopStable(${x}) * count(${x}), 0)`;
    case "duckdb":
      return `coalesce(var_pop(${x}), 0) * count(${x})`;
    default:
      return `greatest(coalesce(var_pop(${x}) * count(${x}), 0), 0)`;
  }
}

/**
 * Refuses, where the dialect resolves a name to an alias of the same SELECT before a column
 * (ClickHouse), a column named as one of the statement's own (doc, sys, q, t, j, w, v0, …)
 * that another role's column would be read in place of (aliasShadowing.ts, with the facets).
 * @throws RagciError naming the column and how to rename it
 */
function refuseShadowedFacetColumns(d: Dialect, c: FacetSourceColumns): void {
  if (!d.aliasesHideColumns) return;
  const roles: [string, string | null, string][] = [
    ["document id", c.doc, "doc"],
    ["system", c.system, "sys"],
    ["query id", c.query, "q"],
    ["trial", c.trial, "t"],
    ["judge", c.judge, "j"],
    ["variant", c.variant, "w"],
    ...c.metrics.map((m, i): [string, string, string] => ["metric", m, `v${i}`]),
  ];
  const named = new Set(roles.map(([, , alias]) => alias));
  for (const [what, column, alias] of roles)
    if (column && column !== alias && named.has(column))
      throw new RagciError(
        "invalid-option",
        `the ${what} column ${column}: ragci's ${d.name} statement names a column of its own ${column}, which ${d.name} would read in place of yours; rename yours with ${optionRef("sql")} "SELECT …, ${column} AS ${column}_in, …" and name ${column}_in`,
        { option: "sql" },
      );
}

/**
 * facetCellsSql.ts's GROUP BY in a warehouse's dialect: one row per (system, document, query,
 * judge, variant) cell, ordered by them, with the columns readFacetCells reads — `rows`
 * (count(*)), `trials` (distinct trial labels), `nulls` (metric values that are NULL or not
 * finite: the check refuses them, and the exact sum leaves them out) and per metric `n{i}`
 * (count), `s{i}` (Σx, added exactly: the dialect's exact sum, perDocumentSums.ts's "decimal"
 * mode) and `w{i}` (the within-cell Σ(x − x̄)², never negative). A subquery, not a CTE, so
 * ClickHouse before 20.8 runs it; a value that is not a number fails the CAST in the database.
 */
export function facetCellsWarehouseSql(
  d: Dialect,
  source: SqlSource,
  c: FacetSourceColumns,
): string {
  refuseShadowedFacetColumns(d, c);
  const text = (column: string | null) =>
    column ? `CAST(${d.identifier(column)} AS ${d.text})` : `CAST(NULL AS ${d.text})`;
  const rows = [
    `${text(c.doc)} AS doc`,
    `${text(c.system)} AS sys`,
    `${text(c.query)} AS q`,
    `${text(c.trial)} AS t`,
    `${text(c.judge)} AS j`,
    `${text(c.variant)} AS w`,
    ...c.metrics.map((m, i) => `CAST(${d.identifier(m)} AS ${d.double}) AS v${i}`),
  ];
  const only =
    c.system && c.systems
      ? ` WHERE ${text(c.system)} IN (${c.systems.map(d.string).join(", ")})`
      : "";
  const double = (sql: string) => `CAST(${sql} AS ${d.double})`;
  const finite = (i: number) => `CASE WHEN ${d.finite(`v${i}`)} THEN 1 ELSE 0 END`;
  const nulls = c.metrics.map((_, i) => `count(*) - sum(${finite(i)})`).join(" + ") || "0";
  const per = c.metrics.flatMap((_, i) => [
    `${double(`count(v${i})`)} AS ${d.alias(`n${i}`)}`,
    `${double(sumSql(d, { x: `v${i}`, mode: "decimal" }, "s"))} AS ${d.alias(`s${i}`)}`,
    // Over the finite values only: DuckDB's var_pop fails on NaN ("out of range") before the
    // check could name the cell.
    `${double(withinSumOfSquares(d, `CASE WHEN ${d.finite(`v${i}`)} THEN v${i} END`))} AS ${d.alias(`w${i}`)}`,
  ]);
  const keys = ["sys", "doc", "q", "j", "w"];
  const columns = [
    ...keys,
    `${double("count(*)")} AS ${d.alias("rows")}`,
    `${double("count(DISTINCT t)")} AS ${d.alias("trials")}`,
    `${double(nulls)} AS ${d.alias("nulls")}`,
    ...per,
  ];
  return `SELECT ${columns.join(", ")}\nFROM (\n  SELECT ${rows.join(",\n    ")}\n  FROM ${sourceFromSql(d, source)}${only}\n) AS ragci_facet_rows\nGROUP BY ${keys.join(", ")}\nORDER BY sys NULLS FIRST, doc, q, j NULLS FIRST, w NULLS FIRST`;
}
