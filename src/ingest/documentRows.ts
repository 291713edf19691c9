import type { DuckDBConnection } from "@duckdb/node-api";
import { type ColumnData, type ColumnKind, readColumns } from "./readColumns.js";
import { type SumMode, sumExpressions } from "./summation.js";
import type { BadRowContext } from "./validateRows.js";

/** What the aggregation and its checks need to know about one file. */
export interface QueryContext {
  readonly connection: DuckDBConnection;
  readonly file: string;
  /** The file's rows normalised (normalizedRows.ts), as a subquery in file order. */
  readonly rowsAt: BadRowContext;
  readonly documentColumn: string;
  readonly systemColumn: string | null;
  readonly metrics: readonly string[];
  readonly labelColumn: string | null;
}

/**
 * How one metric is aggregated. `zeroOne`: only Σx, Σ|x(x − 1)| and how many values are
 * present — when the second is 0 and every value is present, every value is 0 or 1, and Σx²,
 * the extremes and the count off 0/1 follow (aggregateDocuments.ts), at a fraction of the full
 * set's cost.
 */
export interface MetricPass {
  readonly mode: SumMode;
  readonly zeroOne: boolean;
}

/**
 * One metric's aggregates per document. `whole` is 1 when every value is a whole number, 0 when
 * one is not, NaN when none is present.
 */
export interface MetricColumns {
  readonly s: Float64Array;
  readonly ss: Float64Array;
  readonly whole: Float64Array;
  readonly present: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  /** Rows whose value is neither 0 nor 1. */
  readonly odd: Float64Array;
}

/** A zeroOne pass's columns: Σx, Σ|x(x − 1)| (0 only when every value is 0 or 1), count(x). */
export interface ZeroOneColumns {
  readonly s: Float64Array;
  readonly offZeroOne: Float64Array;
  readonly present: Float64Array;
}

/** The design label's aggregates per document: its smallest, largest and distinct count. */
export interface LabelColumns {
  readonly first: (string | null)[];
  readonly last: (string | null)[];
  readonly distinct: Float64Array;
}

/** One row per document × system (ordered by system, then document), column by column. */
export interface DocumentRows<M = MetricColumns> {
  readonly count: number;
  readonly doc: (string | null)[];
  readonly sys: (string | null)[];
  readonly n: Float64Array;
  readonly label: LabelColumns | null;
  readonly metrics: readonly M[];
}

/** One aggregated column: its SQL (read as a DOUBLE or VARCHAR). */
interface AggregateColumn {
  readonly sql: string;
  readonly kind: ColumnKind;
}

const number = (sql: string): AggregateColumn => ({
  sql: `CAST(${sql} AS DOUBLE)`,
  kind: "number",
});
const text = (sql: string): AggregateColumn => ({ sql, kind: "string" });

function metricColumns(v: string, pass: MetricPass): AggregateColumn[] {
  const { s, ss } = sumExpressions(v, pass.mode);
  // |x(x − 1)| ≥ 0 is 0 only at 0 and 1, also in doubles (x − 1 is exact near 1, and far from
  // 1 the product is at least |x|), and a sum of such terms is 0 only when each is, in any
  // order. A third cheaper than bool_and(x = 0 OR x = 1) on 10⁷ rows.
  if (pass.zeroOne)
    return [number(s), number(`sum(abs(${v} * (${v} - 1)))`), number(`count(${v})`)];
  return [
    number(s),
    number(ss),
    // bool_and read as 1/0 (NaN when every value is NULL).
    number(`bool_and(${v} = floor(${v}))`),
    number(`count(${v})`),
    // 0/1 ⇔ whole numbers within [0, 1]; NaN or ±inf show up in min/max, NULLs in count.
    number(`min(${v})`),
    number(`max(${v})`),
    number(`count(*) FILTER (WHERE ${v} <> 0 AND ${v} <> 1)`),
  ];
}

/**
 * The per-document GROUP BY over the file's normalised rows, one scan: n_d, and per metric the
 * columns its pass asks for. Sums follow summation.ts (exact whatever DuckDB's threads, or the
 * double fallback). The result is read as vectors (readColumns), not value by value.
 */
export async function documentRows(
  c: QueryContext,
  passes: readonly MetricPass[],
): Promise<DocumentRows<MetricColumns | ZeroOneColumns>> {
  const columns: AggregateColumn[] = [
    text("doc"),
    ...(c.systemColumn ? [text("sys")] : []),
    number("count(*)"),
    // The label's aggregates only when there is one (count(DISTINCT) costs a second hash).
    ...(c.labelColumn ? [text("min(lab)"), text("max(lab)"), number("count(DISTINCT lab)")] : []),
    ...passes.flatMap((pass, i) => metricColumns(`v${i}`, pass)),
  ];
  // Without a system column sys is NULL throughout: grouping by doc alone is the same groups.
  const keys = c.systemColumn ? "sys, doc" : "doc";
  const sql = `SELECT ${columns.map((col, k) => `${col.sql} AS c${k}`).join(", ")}
    FROM ${c.rowsAt.source} GROUP BY ${keys} ORDER BY ${keys}`;
  const data = await readColumns(
    c.connection,
    sql,
    columns.map((col) => col.kind),
  );
  let at = 0;
  const next = <T extends ColumnData>() => data[at++] as T;
  const doc = next<(string | null)[]>();
  const sys = c.systemColumn ? next<(string | null)[]>() : new Array<null>(doc.length).fill(null);
  const n = next<Float64Array>();
  const label = c.labelColumn
    ? {
        first: next<(string | null)[]>(),
        last: next<(string | null)[]>(),
        distinct: next<Float64Array>(),
      }
    : null;
  const metrics = passes.map((pass): MetricColumns | ZeroOneColumns => {
    const s = next<Float64Array>();
    if (pass.zeroOne) return { s, offZeroOne: next<Float64Array>(), present: next<Float64Array>() };
    return {
      s,
      ss: next<Float64Array>(),
      whole: next<Float64Array>(),
      present: next<Float64Array>(),
      min: next<Float64Array>(),
      max: next<Float64Array>(),
      odd: next<Float64Array>(),
    };
  });
  return { count: doc.length, doc, sys, n, label, metrics };
}
