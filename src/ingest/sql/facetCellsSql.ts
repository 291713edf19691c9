import type { Dialect } from "./dialects.js";
import { countWhere, sumSql } from "./perDocumentSums.js";
import { type TrialCount, trialCountSql, trialRowsSql } from "./trialCountSql.js";

/**
 * The within-cell sum of squares Σ(x − x̄)² of `x`, never negative, with each dialect's own
 * variance aggregate × count: PostgreSQL's var_pop over numeric is exact (its Σx and Σx² are
 * numeric, unbounded); ClickHouse's varPopStable is Welford's update (its plain varPop is the
 * one-pass Σx² − (Σx)²/n, which cancels); DuckDB's var_pop is Welford's (merged across
 * threads by Chan's formula, in the order they finish: files of other than whole numbers are
 * read on one thread); the others' var_pop clamped at 0, since their algorithms are not
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
 * Σ(x − x̄)² of whole numbers x (a file's integer column, in DuckDB) from their sums, as the
 * per-document path's "integer" mode adds them (summation.ts): Σx and Σx² are integers whose
 * partial sums stay below 2⁵³, so exact in any order, and (n Σx² − (Σx)²) / n is then the same
 * bits whatever order DuckDB's threads add in (its var_pop merges their states in the order
 * they finish).
 */
function integerWithinSumOfSquares(x: string): string {
  return `greatest(coalesce((count(${x}) * sum(${x} * ${x}) - sum(${x}) * sum(${x})) / count(${x}), 0), 0)`;
}

/**
 * Σx of a cell over its finite values (the check refuses the others by name, so their sum
 * must not fail first or come back as NaN): DuckDB's fsum (Kahan–Babuška), which files are
 * read with (on one thread, unless their metrics are whole numbers: readFacetCells); elsewhere the
 * dialect's exact sum (perDocumentSums.ts's "decimal" mode).
 */
function cellSum(d: Dialect, x: string): string {
  if (d.name === "duckdb") return `fsum(CASE WHEN ${d.finite(x)} THEN ${x} END)`;
  return sumSql(d, { x, mode: "decimal" }, "s");
}

/**
 * The facet cells of faceted per-query rows — `rows`, a SELECT whose columns are doc, sys, q,
 * t, j, w (text, NULL where absent; in DuckDB also the file's own values, named by their text
 * after grouping) and v0 … v{metrics−1} (doubles): normalizedRowsSql for a
 * file, sourceRowsSelect for a database — in one GROUP BY: one row per (system, document, query,
 * judge, variant) cell, ordered by them, with `rows` (count(*)), `trials` (distinct trial
 * labels; a trial named twice, or none, makes rows > trials), `nulls` (metric values that are
 * NULL or not finite: the check refuses them) and per metric `n{i}` (count), `s{i}` (Σx) and
 * `w{i}` (the within-cell Σ(x − x̄)² about the cell mean, never negative). A subquery, not a
 * CTE, so ClickHouse before 20.8 runs it. `trials`: how `trials` is counted (trialCountSql.ts;
 * other than "distinct", DuckDB's only). `integers` (DuckDB): every metric holds whole numbers,
 * whose Σx and Σ(x − x̄)² come from exact sums (integerWithinSumOfSquares), in any order.
 */
export function facetCellsSql(
  d: Dialect,
  rows: string,
  metrics: number,
  trials: TrialCount = "distinct",
  integers = false,
): string {
  if ((trials !== "distinct" || integers) && d.name !== "duckdb")
    throw new Error(`internal: trial count ${trials} and integer sums are DuckDB's only`);
  const double = (sql: string) => `CAST(${sql} AS ${d.double})`;
  const indices = Array.from({ length: metrics }, (_, i) => i);
  const nulls =
    indices.map((i) => `count(*) - ${countWhere(d, d.finite(`v${i}`))}`).join(" + ") || "0";
  const per = indices.flatMap((i) => {
    // Over the finite values only: DuckDB's var_pop fails on NaN ("out of range") before the
    // check could name the cell.
    const finite = `CASE WHEN ${d.finite(`v${i}`)} THEN v${i} END`;
    return [
      `${double(`count(v${i})`)} AS ${d.alias(`n${i}`)}`,
      integers
        ? `${double(`sum(${finite})`)} AS ${d.alias(`s${i}`)}`
        : `${double(cellSum(d, `v${i}`))} AS ${d.alias(`s${i}`)}`,
      `${double(integers ? integerWithinSumOfSquares(finite) : withinSumOfSquares(d, finite))} AS ${d.alias(`w${i}`)}`,
    ];
  });
  const keys = ["sys", "doc", "q", "j", "w"];
  const columns = [
    ...keys,
    `${double("count(*)")} AS ${d.alias("rows")}`,
    `${double(trialCountSql(trials))} AS ${d.alias("trials")}`,
    `${double(nulls)} AS ${d.alias("nulls")}`,
    ...per,
  ];
  const grouped = `SELECT ${columns.join(", ")}\nFROM (\n  ${trialRowsSql(trials, rows)}\n) AS ragci_facet_rows\nGROUP BY ${keys.join(", ")}`;
  const order = "ORDER BY sys NULLS FIRST, doc, q, j NULLS FIRST, w NULLS FIRST";
  if (d.name !== "duckdb") return `${grouped}\n${order}`;
  // DuckDB's rows may carry the file's own ids (normalizedRowsSql's "raw" keys): the cells
  // are named, and ordered, by their text.
  const named = [
    ...keys.map((k) => `CAST(${k} AS VARCHAR) AS ${k}`),
    ...columns.slice(keys.length).map((c) => c.slice(c.lastIndexOf(" AS ") + 4)),
  ];
  return `SELECT ${named.join(", ")}\nFROM (\n${grouped}\n) AS ragci_cells\n${order}`;
}
