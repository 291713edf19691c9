import type { RagciError } from "../core/errors.js";
import { csvLineRefusal } from "./csvReadError.js";
import {
  type DocumentRows,
  documentRows,
  type MetricColumns,
  type MetricPass,
  type QueryContext,
  type ZeroOneColumns,
} from "./documentRows.js";
import { type QueryProgress, unreadable, withQueryProgress } from "./duckdb.js";
import { duringScan } from "./scanGate.js";
import { integerSumsExact, isDecimalOverflow, type SumMode, type Summation } from "./summation.js";

/** The per-document rows with every metric's min, max and count off 0/1, and how they were summed. */
export interface AggregatedDocuments {
  readonly rows: DocumentRows;
  readonly summation: Summation;
}

/**
 * Aggregates the file per document, in as few scans as the data allow:
 * - a whole-number metric whose first rows are all 0/1 gets the `zeroOne` pass (documentRows.ts):
 *   when every document is 0/1 that one scan is all; otherwise the file is scanned again with
 *   the full set;
 * - a whole-number metric whose integer sums are not exact (a value not whole, or Σx² reaching
 *   2⁵³) is summed again in DECIMAL;
 * - a DECIMAL overflow (|Σx²| ≥ 10²⁰) sends every metric to double sums on one thread, which
 *   reads the file in order, so the double sums are in file order.
 * `modes` come from the column types; `zeroOneFirst` marks the metrics whose first rows are 0/1.
 */
export async function aggregateDocuments(
  c: QueryContext,
  modes: readonly SumMode[],
  zeroOneFirst: readonly boolean[],
  onProgress: QueryProgress | undefined,
): Promise<AggregatedDocuments> {
  let passes: MetricPass[] = modes.map((mode, i) => ({
    mode,
    zeroOne: mode === "integer" && zeroOneFirst[i] === true,
  }));
  const scan = () =>
    duringScan(() => withQueryProgress(c.connection, onProgress, () => documentRows(c, passes)));
  try {
    let read = await scan();
    // At most two more scans: a zeroOne metric that is not 0/1 gets the full set, then (or at
    // once) an integer metric whose sums are not exact gets DECIMAL.
    for (let scans = 1; scans < 3; scans++) {
      const again = passes.map((pass, i): MetricPass | null => {
        const metric = read.metrics[i] as MetricColumns | ZeroOneColumns;
        if ("offZeroOne" in metric)
          return provenZeroOne(metric, read.n) ? null : { mode: "integer", zeroOne: false };
        return pass.mode === "integer" && !integerSumsExact(metric)
          ? { mode: "decimal", zeroOne: false }
          : null;
      });
      if (again.every((pass) => pass === null)) break;
      passes = passes.map((pass, i) => again[i] ?? pass);
      read = await scan();
    }
    return { rows: completed(read), summation: "exact" };
  } catch (error) {
    if (!isDecimalOverflow(error)) throw explainFailure(error, c.file);
    await c.connection.run("SET threads = 1");
    const rows = await documentRows(
      c,
      modes.map(() => ({ mode: "double", zeroOne: false })),
    );
    return { rows: completed(rows), summation: "double-single-thread" };
  }
}

/** Every value of every document is present and 0 or 1. */
function provenZeroOne(metric: ZeroOneColumns, n: Float64Array): boolean {
  for (let d = 0; d < n.length; d++)
    if (metric.offZeroOne[d] !== 0 || metric.present[d] !== n[d]) return false;
  return true;
}

/**
 * The full set of columns for every metric. A 0/1 metric's follow from its sums: Σx² = Σx
 * (each x² = x, and sums of 0s and 1s are exact in any order), every value is present and
 * whole, a document has a 0 when Σx < n and a 1 when Σx > 0, and no other value.
 */
function completed(rows: DocumentRows<MetricColumns | ZeroOneColumns>): DocumentRows {
  const metrics = rows.metrics.map((metric): MetricColumns => {
    if (!("offZeroOne" in metric)) return metric;
    const min = new Float64Array(rows.count);
    const max = new Float64Array(rows.count);
    for (let d = 0; d < rows.count; d++) {
      const s = metric.s[d] as number;
      min[d] = s < (rows.n[d] as number) ? 0 : 1;
      max[d] = s > 0 ? 1 : 0;
    }
    const { s } = metric;
    return {
      s,
      ss: s,
      whole: new Float64Array(rows.count).fill(1),
      present: rows.n,
      min,
      max,
      odd: new Float64Array(rows.count),
    };
  });
  return { ...rows, metrics };
}

/** A CSV value that is not a number under the pinned DOUBLE type (its line and column), or another failure to read. */
function explainFailure(error: unknown, file: string): RagciError {
  return csvLineRefusal(file, error) ?? unreadable(file, error);
}
