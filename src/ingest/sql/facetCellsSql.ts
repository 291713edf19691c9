import type { Dialect } from "./dialects.js";
import { countWhere, sumSql } from "./perDocumentSums.js";
import { type TrialCount, trialCountSql, trialRowsSql } from "./trialCountSql.js";

/**
 * The within-cell sum of squares Σ(x − x̄)² of `x`, never negative, with each dialect's own
 * variance aggregate × count: PostgreSQL's var_pop over numeric is exact (its Σx and Σx² are
 * numeric, unbounded); ClickHouse's varPopStable is Welford's update (its plain varPop is the
 * one-pass Σx² − (Σx)²/n, which cancels); DuckDB's var_pop is Welford's merged across threads
 * by Chan's formula; the others' var_pop clamped at 0, since their algorithms are not
 * documented. A cell of one value has 0.
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
 * Σx of a cell over its finite values (the check refuses the others by name, so their sum
 * must not fail first or come back as NaN): DuckDB's fsum (Kahan–Babuška, so the order threads
 * add in leaves no trace at a cell's size), which files are read with; elsewhere the
 * dialect's exact sum (perDocumentSums.ts's "decimal" mode).
 */
function cellSum(d: Dialect, x: string): string {
  if (d.name === "duckdb") return `fsum(CASE WHEN ${d.finite(x)} THEN ${x} END)`;
  return sumSql(d, { x, mode: "decimal" }, "s");
}

/**
 * The facet cells of faceted per-query rows — `rows`, a SELECT whose columns are doc, sys, q,
 * t, j, w (text, NULL where absent) and v0 … v{metrics−1} (doubles): normalizedRowsSql for a
 * file, sourceRowsSelect for a database — in one GROUP BY: one row per (system, document, query,
 * judge, variant) cell, ordered by them, with `rows` (count(*)), `trials` (distinct trial
 * labels; a trial named twice, or none, makes rows > trials), `nulls` (metric values that are
 * NULL or not finite: the check refuses them) and per metric `n{i}` (count), `s{i}` (Σx) and
 * `w{i}` (the within-cell Σ(x − x̄)² about the cell mean, never negative). A subquery, not a
 * CTE, so ClickHouse before 20.8 runs it. `trials`: how `trials` is counted (trialCountSql.ts;
 * other than "distinct", DuckDB's only).
 */
export function facetCellsSql(
  d: Dialect,
  rows: string,
  metrics: number,
  trials: TrialCount = "distinct",
): string {
  if (trials !== "distinct" && d.name !== "duckdb")
    throw new Error(`internal: trial count ${trials} is DuckDB's only`);
  const double = (sql: string) => `CAST(${sql} AS ${d.double})`;
  const indices = Array.from({ length: metrics }, (_, i) => i);
  const nulls =
    indices.map((i) => `count(*) - ${countWhere(d, d.finite(`v${i}`))}`).join(" + ") || "0";
  const per = indices.flatMap((i) => [
    `${double(`count(v${i})`)} AS ${d.alias(`n${i}`)}`,
    `${double(cellSum(d, `v${i}`))} AS ${d.alias(`s${i}`)}`,
    // Over the finite values only: DuckDB's var_pop fails on NaN ("out of range") before the
    // check could name the cell.
    `${double(withinSumOfSquares(d, `CASE WHEN ${d.finite(`v${i}`)} THEN v${i} END`))} AS ${d.alias(`w${i}`)}`,
  ]);
  const keys = ["sys", "doc", "q", "j", "w"];
  const columns = [
    ...keys,
    `${double("count(*)")} AS ${d.alias("rows")}`,
    `${double(trialCountSql(trials))} AS ${d.alias("trials")}`,
    `${double(nulls)} AS ${d.alias("nulls")}`,
    ...per,
  ];
  return `SELECT ${columns.join(", ")}\nFROM (\n  ${trialRowsSql(trials, rows)}\n) AS ragci_facet_rows\nGROUP BY ${keys.join(", ")}\nORDER BY sys NULLS FIRST, doc, q, j NULLS FIRST, w NULLS FIRST`;
}
