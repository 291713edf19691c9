import { sqlIdentifier } from "./inputFormat.js";
import { textOf } from "./normalizedRows.js";

/** The columns of a per-query (per-trial) file that the facet statements read. */
export interface FacetColumns {
  /** A table function over the file. */
  readonly source: string;
  readonly documentColumn: string;
  /** SQL giving the system as VARCHAR (a column, or a literal for one file per system). */
  readonly systemSql: string | null;
  readonly queryColumn: string;
  /** The rerun (epoch, repeat) column; null: one trial per cell. */
  readonly trialColumn: string | null;
  /** The judge (grader, scorer) column; null: no judge facet. */
  readonly judgeColumn: string | null;
  /** The prompt-wording column; null: no variant facet. */
  readonly variantColumn: string | null;
  readonly metrics: readonly string[];
}

/** A facet column as VARCHAR, or a NULL of that type when the file has none. */
const facet = (column: string | null): string => (column ? textOf(column) : "NULL::VARCHAR");

/** The file's rows as doc, sys, q, t, j, w (VARCHAR) and v0, v1, … (DOUBLE). */
function facetRowsSql(c: FacetColumns): string {
  return `SELECT ${[
    `${textOf(c.documentColumn)} AS doc`,
    `${c.systemSql ?? "NULL::VARCHAR"} AS sys`,
    `${textOf(c.queryColumn)} AS q`,
    `${facet(c.trialColumn)} AS t`,
    `${facet(c.judgeColumn)} AS j`,
    `${facet(c.variantColumn)} AS w`,
    ...c.metrics.map((m, i) => `TRY_CAST(${sqlIdentifier(m)} AS DOUBLE) AS v${i}`),
  ].join(", ")} FROM ${c.source}`;
}

/**
 * One row per (system, document, query, judge, variant) cell, ordered by them, in one GROUP BY
 * over the file: `rows` (count(*)), `trials` (distinct trial labels; a trial named twice, or
 * none, makes rows > trials), `nulls` (metric values that are not numbers), and per metric
 * `n{i}` = count, `s{i}` = Σx (fsum: DuckDB's Kahan–Babuška sum, so the order threads add in
 * leaves no trace at a cell's size) and `w{i}` = Σ(x − x̄)², the within-cell sum of squares
 * about the cell mean, as DuckDB's var_pop × count (Welford's update, merged across threads by
 * Chan's formula: no Σx² − (Σx)²/n cancellation, and never negative).
 */
export function facetCellsSql(c: FacetColumns): string {
  const per = c.metrics.flatMap((_, i) => [
    `CAST(count(v${i}) AS DOUBLE) AS n${i}`,
    `CAST(fsum(v${i}) AS DOUBLE) AS s${i}`,
    `CAST(coalesce(var_pop(v${i}), 0) * count(v${i}) AS DOUBLE) AS w${i}`,
  ]);
  const nulls = c.metrics.map((_, i) => `count(*) - count(v${i})`).join(" + ") || "0";
  return `SELECT sys, doc, q, j, w, CAST(count(*) AS DOUBLE) AS rows, CAST(count(DISTINCT t) AS DOUBLE) AS trials, CAST(${nulls} AS DOUBLE) AS nulls, ${per.join(", ")} FROM (${facetRowsSql(c)}) GROUP BY sys, doc, q, j, w ORDER BY sys NULLS FIRST, doc, q, j NULLS FIRST, w NULLS FIRST`;
}

/**
 * The file as one row per (system, document, query), each metric the mean of the query's
 * trials, judges and variants — what the per-document (mean) path reads: reruns and graders
 * nested in a query are averaged into its result, as the tools' default reducers do. Columns
 * keep the file's names (document, system, query, metrics).
 */
export function averagedRowsSql(c: FacetColumns, systemColumn: string | null): string {
  const keys = [
    `doc AS ${sqlIdentifier(c.documentColumn)}`,
    ...(systemColumn ? [`sys AS ${sqlIdentifier(systemColumn)}`] : []),
    `q AS ${sqlIdentifier(c.queryColumn)}`,
  ];
  const values = c.metrics.map((m, i) => `avg(v${i}) AS ${sqlIdentifier(m)}`);
  return `SELECT ${[...keys, ...values].join(", ")} FROM (${facetRowsSql(c)}) GROUP BY sys, doc, q ORDER BY sys NULLS FIRST, doc, q`;
}
