import type { SumMode } from "../summation.js";
import type { Dialect } from "./dialects.js";

/**
 * One aggregate of a metric per group (document, or system × document):
 * - s, ss: Σx and Σx², added under the metric's SumMode (summation.ts);
 * - min, max;
 * - binary: 1 when every value is 0 or 1, else 0;
 * - whole: 1 when every value is a whole number, 0 when one is not, NULL when none is present;
 * - present: how many values are not NULL; odd: how many are neither 0 nor 1;
 * - offZeroOne: Σ|x(x − 1)|, 0 only when every value is 0 or 1 (the 0/1 fast pass).
 */
export type SumColumn =
  | "s"
  | "ss"
  | "min"
  | "max"
  | "binary"
  | "whole"
  | "present"
  | "odd"
  | "offZeroOne";

/** One metric of a grouped statement: the double expression, its sums' mode, what to return. */
export interface MetricSums {
  /** A double expression over the grouped rows (v0, or a pair's difference). */
  readonly x: string;
  readonly mode: SumMode;
  /** Each aggregate and the name it is returned under. */
  readonly columns: readonly (readonly [SumColumn, string])[];
  /** The "double" mode's order of addition when the rows do not come in file order. */
  readonly order?: string;
}

/** A grouped statement of per-document sums (one row per group of `keys`). */
export interface GroupedSums {
  /** What is read: a table, a CTE or a parenthesised subquery. */
  readonly from: string;
  /** The grouping expressions, each returned under its name. */
  readonly keys: readonly (readonly [string, string])[];
  /** Columns returned before the metrics' (e.g. a metric's name), as written. */
  readonly leading?: readonly string[];
  /** The group's row count, returned under this name; none when null. */
  readonly count: string | null;
  readonly metrics: readonly MetricSums[];
  /** Other aggregates after the metrics' (e.g. a label's), as written. */
  readonly trailing?: readonly string[];
  readonly where?: string;
  /** Sort by the keys (their names). */
  readonly ordered: boolean;
  /** The count and every aggregate cast to the dialect's double (a reader of doubles only). */
  readonly doubles?: boolean;
}

/**
 * The SELECT of per-document sums, for any dialect: the one statement every reader sums rows
 * with — files (DuckDB; documentRows.ts), paired files (pairedSums.ts) and databases
 * (perDocumentSql.ts, which adds the row checks and the output shape around it); paired rows
 * of both are first matched on the query by pairedQueries.ts.
 */
export function groupedSumsSql(d: Dialect, spec: GroupedSums): string {
  const number = (sql: string) => (spec.doubles ? `CAST(${sql} AS ${d.double})` : sql);
  const columns = [
    ...spec.keys.map(([sql, name]) => `${sql} AS ${d.alias(name)}`),
    ...(spec.leading ?? []),
    ...(spec.count === null ? [] : [`${number("count(*)")} AS ${d.alias(spec.count)}`]),
    ...spec.metrics.flatMap((m) =>
      m.columns.map(([column, name]) => `${number(sumSql(d, m, column))} AS ${d.alias(name)}`),
    ),
    ...(spec.trailing ?? []),
  ];
  const keys = spec.keys.map(([sql]) => sql).join(", ");
  const where = spec.where ? ` WHERE ${spec.where}` : "";
  const order = spec.ordered
    ? ` ORDER BY ${spec.keys.map(([, name]) => d.alias(name)).join(", ")}`
    : "";
  return `SELECT ${columns.join(", ")}\n  FROM ${spec.from}${where} GROUP BY ${keys}${order}`;
}

/** One aggregate of `m.x` in dialect `d`. */
export function sumSql(
  d: Dialect,
  m: Pick<MetricSums, "x" | "mode" | "order">,
  column: SumColumn,
): string {
  const { x } = m;
  switch (column) {
    case "s":
      return added(d, m, x);
    case "ss":
      return added(d, m, `${x} * ${x}`);
    case "min":
      return `min(${x})`;
    case "max":
      return `max(${x})`;
    case "binary":
      return every(d, x, `${x} = 0 OR ${x} = 1`);
    case "whole":
      return every(d, x, `${x} = floor(${x})`);
    case "present":
      return `count(${x})`;
    case "odd":
      return countWhere(d, `${x} <> 0 AND ${x} <> 1`);
    case "offZeroOne":
      // |x(x − 1)| ≥ 0 is 0 only at 0 and 1, also in doubles (x − 1 is exact near 1, and far
      // from 1 the product is at least |x|), and a sum of such terms is 0 only when each is, in
      // any order. A third cheaper than bool_and(x = 0 OR x = 1) on 10⁷ rows.
      return `sum(abs(${x} * (${x} - 1)))`;
  }
}

/**
 * Σ`term` of `m.x` under `m.mode`. "decimal": NaN and ±∞ are kept out of the exact casts
 * (DECIMAL, NUMBER, BIGNUMERIC, Decimal256), which would fail on them with the database's own
 * error before the row checks could report them in ragci's words; an x whose square is ±∞
 * still fails the cast, which sends a file to the "double" mode.
 */
function added(d: Dialect, m: Pick<MetricSums, "x" | "mode" | "order">, term: string): string {
  if (m.mode === "decimal") return d.exactSum(`CASE WHEN ${d.finite(m.x)} THEN ${term} END`);
  if (m.mode === "double" && m.order) {
    if (d.name !== "duckdb") throw new Error(`internal: ordered double sums are DuckDB's only`);
    return `sum(${term} ORDER BY ${m.order})`;
  }
  return `sum(${term})`;
}

/** 1 when every non-NULL `x` meets `condition`, 0 when one does not, NULL when none is present. */
function every(d: Dialect, x: string, condition: string): string {
  if (d.name === "duckdb") return `CAST(bool_and(${condition}) AS INTEGER)`;
  return `min(CASE WHEN ${x} IS NULL THEN NULL WHEN ${condition} THEN 1 ELSE 0 END)`;
}

/** How many rows meet `condition`. */
export function countWhere(d: Dialect, condition: string): string {
  if (d.name === "duckdb") return `count(*) FILTER (WHERE ${condition})`;
  return `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
}
