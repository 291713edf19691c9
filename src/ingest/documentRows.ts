import type { DuckDBConnection } from "@duckdb/node-api";
import { type ColumnData, type ColumnKind, readColumns } from "./readColumns.js";
import { dialect } from "./sql/dialects.js";
import { groupedSumsSql, type SumColumn } from "./sql/perDocumentSums.js";
import type { SumMode } from "./summation.js";
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

/** The columns each pass reads of a metric, in the order they come back. */
function metricColumns(pass: MetricPass): readonly SumColumn[] {
  // 0/1 ⇔ whole numbers within [0, 1]; NaN or ±inf show up in min/max, NULLs in present.
  return pass.zeroOne
    ? ["s", "offZeroOne", "present"]
    : ["s", "ss", "whole", "present", "min", "max", "odd"];
}

const DUCKDB = dialect("duckdb");

/**
 * The per-document GROUP BY over the file's normalised rows, one scan: n_d, and per metric the
 * columns its pass asks for. Sums follow summation.ts (exact whatever DuckDB's threads, or the
 * double fallback). The result is read as vectors (readColumns), not value by value.
 */
export async function documentRows(
  c: QueryContext,
  passes: readonly MetricPass[],
): Promise<DocumentRows<MetricColumns | ZeroOneColumns>> {
  // Without a system column sys is NULL throughout: grouping by doc alone is the same groups.
  const keys: [string, string][] = c.systemColumn
    ? [
        ["sys", "sys"],
        ["doc", "doc"],
      ]
    : [["doc", "doc"]];
  const sql = groupedSumsSql(DUCKDB, {
    from: c.rowsAt.source,
    keys,
    count: "n",
    metrics: passes.map((pass, i) => ({
      x: `v${i}`,
      mode: pass.mode,
      columns: metricColumns(pass).map((column) => [column, `v${i}_${column}`] as const),
    })),
    // The label's aggregates only when there is one (count(DISTINCT) costs a second hash).
    trailing: c.labelColumn ? ["min(lab)", "max(lab)", "CAST(count(DISTINCT lab) AS DOUBLE)"] : [],
    ordered: true,
    doubles: true,
  });
  const kinds: ColumnKind[] = [
    ...keys.map((): ColumnKind => "string"),
    "number",
    ...passes.flatMap((pass) => metricColumns(pass).map((): ColumnKind => "number")),
    ...(c.labelColumn ? (["string", "string", "number"] as const) : []),
  ];
  const data = await readColumns(c.connection, sql, kinds);
  let at = 0;
  const next = <T extends ColumnData>() => data[at++] as T;
  const sys = c.systemColumn ? next<(string | null)[]>() : null;
  const doc = next<(string | null)[]>();
  const n = next<Float64Array>();
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
  const label = c.labelColumn
    ? {
        first: next<(string | null)[]>(),
        last: next<(string | null)[]>(),
        distinct: next<Float64Array>(),
      }
    : null;
  return {
    count: doc.length,
    doc,
    sys: sys ?? new Array<null>(doc.length).fill(null),
    n,
    label,
    metrics,
  };
}
