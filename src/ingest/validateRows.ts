import type { DuckDBConnection } from "@duckdb/node-api";
import { isMissingId } from "../core/aggregate/rowRules.js";
import { RagciError } from "../core/errors.js";
import { queryRows } from "./duckdb.js";
import type { InputFormat } from "./inputFormat.js";
import { dialect } from "./sql/dialects.js";
import { brokenRowSql, ruleNeed } from "./sql/rowConditions.js";

/**
 * Where rows are looked for: `source` is a table function or a subquery over one input file
 * whose rows come in file order, so a row number is a line of that file.
 */
export interface BadRowContext {
  readonly connection: DuckDBConnection;
  readonly source: string;
  readonly file: string;
  readonly format: InputFormat;
}

/**
 * A condition a row must not meet, on the readers' normalised columns (doc, sys, q, lab as
 * VARCHAR; v0, v1, … the metrics as DOUBLE), with the problem in the user's column names.
 */
export interface RowCheck {
  readonly condition: string;
  readonly problem: string;
  readonly column: string;
  /**
   * For a check with several ways to fail: an SQL expression naming the failing row's one
   * ("is NaN", "is infinite (inf)", …), and the problem written around it (`%s` in its place).
   */
  readonly which?: { readonly sql: string; readonly problem: string };
}

const DUCKDB = dialect("duckdb");

/**
 * A blank id or label among values already read (a per-document table's): core's rule for
 * in-memory rows (rowRules.ts). The conditions below then find the file's row.
 */
export const isBlankId = (id: string | null): boolean => isMissingId(id);

/** The per-row rules every reader applies (core's rowRules.ts), in the file readers' words. */
export const rowChecks = {
  document: (column: string): RowCheck => ({
    condition: brokenRowSql(DUCKDB, "document"),
    problem: `column ${column} is empty; ${ruleNeed("document")}`,
    column,
  }),
  system: (column: string): RowCheck => ({
    condition: brokenRowSql(DUCKDB, "system"),
    problem: `column ${column} is empty; ${ruleNeed("system")}`,
    column,
  }),
  query: (column: string): RowCheck => ({
    condition: brokenRowSql(DUCKDB, "query"),
    problem: `column ${column} is empty; ${ruleNeed("query")}`,
    column,
  }),
  metric: (column: string, index: number): RowCheck => ({
    condition: brokenRowSql(DUCKDB, "metric", index),
    problem: `column ${column} is empty, not a number, NaN or infinite; ${ruleNeed("metric")}`,
    column,
    // The readers have cast the values to DOUBLE already: a null was empty or did not cast
    // (some readers refuse text first, naming it; others cannot tell), NaN, or ±infinity.
    which: {
      sql: `CASE WHEN v${index} IS NULL THEN 'is empty or not a number' WHEN isnan(v${index}) THEN 'is NaN' ELSE 'is infinite (' || CAST(v${index} AS VARCHAR) || ')' END`,
      problem: `column ${column} %s; ${ruleNeed("metric")}`,
    },
  }),
  label: (column: string): RowCheck => ({
    condition: brokenRowSql(DUCKDB, "label"),
    problem: `column ${column} is empty; ${ruleNeed("label")}`,
    column,
  }),
} as const;

/**
 * A document whose rows disagree on the design's label: the same error from every reader
 * (a document is the sampling unit, so it sits in one stratum or first-stage unit).
 */
export function splitLabelError(
  file: string,
  document: string,
  column: string,
  values: readonly string[],
): RagciError {
  const shown = values.length >= 2 ? ` (${values.slice(0, 2).join(" and ")})` : "";
  return new RagciError(
    "invalid-design",
    `${file}: document ${document} has more than one ${column}${shown}; a document belongs to one ${column}`,
    { file, column, document },
  );
}

/**
 * The first row matching `condition` (one thread, file order) as "line N" (text formats,
 * counting the header) or "row N" (Parquet), with how many rows match; null when none does.
 */
export async function firstRowWhere(
  c: BadRowContext,
  condition: string,
  which: string | null = null,
): Promise<{
  readonly where: string;
  readonly row: number;
  readonly count: number;
  /** `which` evaluated on that row, when asked for. */
  readonly which: string | null;
} | null> {
  await c.connection.run("SET threads = 1");
  const rows = await queryRows(
    c.connection,
    `SELECT r${which ? `, ${which} AS which` : ""} FROM (SELECT row_number() OVER () AS r, * FROM ${c.source}) WHERE ${condition} ORDER BY r LIMIT 1`,
  );
  const count = await queryRows(
    c.connection,
    `SELECT count(*) AS k FROM ${c.source} WHERE ${condition}`,
  );
  const r = rows[0]?.r as number | undefined;
  if (r === undefined) return null;
  const where =
    c.format === "parquet" ? `row ${r}` : c.format === "jsonl" ? `line ${r}` : `line ${r + 1}`;
  const named = rows[0]?.which;
  return {
    where,
    row: r,
    count: (count[0]?.k as number | undefined) ?? 0,
    which: typeof named === "string" ? named : null,
  };
}

/**
 * Finds the first row failing `check` (error path only) and returns an error naming its line
 * or row, and how many more rows share the problem.
 */
export async function locateBadRow(c: BadRowContext, check: RowCheck): Promise<RagciError> {
  const found = await firstRowWhere(c, check.condition, check.which?.sql ?? null);
  const column = check.column;
  if (found === null)
    return new RagciError("invalid-value", `${c.file}: ${check.problem}`, { file: c.file, column });
  const k = found.count;
  const others = k > 1 ? ` (and ${k - 1} more row${k > 2 ? "s" : ""})` : "";
  const problem =
    check.which && found.which !== null
      ? check.which.problem.replace("%s", found.which)
      : check.problem;
  return new RagciError("invalid-value", `${c.file} ${found.where}: ${problem}${others}`, {
    file: c.file,
    row: found.row,
    column,
  });
}
