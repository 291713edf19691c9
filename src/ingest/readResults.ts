import type { DuckDBConnection } from "@duckdb/node-api";
import { documentStats } from "../core/aggregate/documentStats.js";
import { RagciError } from "../core/errors.js";
import { checkInputFile } from "./checkInput.js";
import { defaultMetric, describeColumns } from "./describeColumns.js";
import {
  type ColumnData,
  type ColumnKind,
  duckDbMessage,
  readColumns,
  unreadable,
  withDuckDb,
  withMemoryLimit,
  withQueryProgress,
} from "./duckdb.js";
import { inputFormat, tableFunction } from "./inputFormat.js";
import { nearlyBinaryNotices, repeatedQueryNotices, spacedIdNotices } from "./inputNotices.js";
import { normalizedRowsSql, textOf } from "./normalizedRows.js";
import {
  resolveColumn,
  documentColumn as resolveDocumentColumn,
  labelColumn as resolveLabelColumn,
} from "./resolveColumns.js";
import type { MetricAggregates, ResultsTable } from "./resultsTable.js";
import { withResultValues } from "./resultValues.js";
import {
  INTEGER_TYPE,
  isDecimalOverflow,
  type SumMode,
  type Summation,
  sumExpressions,
} from "./summation.js";
import { type BadRowContext, locateBadRow, rowChecks, splitLabelError } from "./validateRows.js";

export { DOCUMENT_COLUMN_CANDIDATES } from "./resolveColumns.js";
export type { MetricAggregates, ResultsTable } from "./resultsTable.js";

export interface ReadResultsOptions {
  /** Path DuckDB reads. */
  readonly file: string;
  /** How the file is named in messages (e.g. "stdin"); defaults to `file`. */
  readonly displayName?: string;
  readonly format?: string | null;
  /** Document id column; default the first of doc_id, doc, document_id, document. */
  readonly doc?: string | null;
  /** Metric columns; default the only numeric column that is not an id. */
  readonly metrics?: readonly string[] | null;
  /** System column: one set of aggregates per system. */
  readonly system?: string | null;
  /**
   * Without `system`: split by this column when the file has one, so that a file of several
   * systems is noticed instead of pooled.
   */
  readonly systemIfPresent?: string | null;
  readonly threads?: number;
  /**
   * Also return the per-query values of non-binary metrics (for the chunk bootstrap) when a
   * system has at most this many results; default 0 (never).
   */
  readonly valuesUpTo?: number;
  /** A per-document label column (stratum or first-stage unit); one value per document. */
  readonly documentLabel?: string | null;
  /** Told how far each pass over the file is (DuckDB's estimate, 0–1) while it runs. */
  readonly onProgress?: (pass: ReadingPass, fraction: number) => void;
}

/** The passes over a results file: the GROUP BY per document, the query-id repeat check. */
export type ReadingPass = "aggregating" | "checking query ids";

/** What the aggregation and its checks need to know about one file. */
interface QueryContext {
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
 * Reads per-query results (CSV, TSV, JSONL or Parquet) and aggregates them per document with
 * DuckDB's GROUP BY: n_d = count, s_d = Σx, ss_d = Σx², min, max, and whether every x is 0/1.
 * Sums follow summation.ts: exact whatever DuckDB's threads, with a stated double fallback.
 */
export async function readResults(options: ReadResultsOptions): Promise<ResultsTable> {
  const file = options.displayName ?? options.file;
  await checkInputFile(options.file, file);
  const format = inputFormat(options.file, options.format);
  return withDuckDb(async (connection) => {
    const columns = await describeColumns(connection, options.file, format, file);
    const names = columns.map((c) => c.name);
    if (names.length === 0) throw new RagciError("empty-input", `${file}: no columns`, { file });
    const documentColumn = resolveDocumentColumn(options.doc, names, file);
    const systemColumn = options.system
      ? resolveColumn(options.system, names, file, "system")
      : options.systemIfPresent && names.includes(options.systemIfPresent)
        ? options.systemIfPresent
        : null;
    const ids = [documentColumn, ...(systemColumn ? [systemColumn] : [])];
    const metrics =
      options.metrics && options.metrics.length > 0
        ? options.metrics.map((m) => resolveColumn(m, names, file, "metric"))
        : [defaultMetric(columns, ids, file)];
    for (const metric of metrics) {
      if (ids.includes(metric)) {
        throw new RagciError(
          "invalid-option",
          `${file}: column ${metric} cannot be both a metric and an id`,
          { file, column: metric },
        );
      }
    }
    const labelColumn = resolveLabelColumn(options.documentLabel, names, file);
    const pinned: Record<string, string> = { [documentColumn]: "VARCHAR" };
    if (systemColumn) pinned[systemColumn] = "VARCHAR";
    for (const m of metrics) pinned[m] = "DOUBLE";
    const raw = tableFunction(
      options.file,
      format,
      format === "csv" || format === "tsv" ? pinned : {},
    );
    const normalized = normalizedRowsSql({
      source: raw,
      documentColumn,
      systemSql: systemColumn ? textOf(systemColumn) : null,
      metrics,
      labelColumn,
    });
    const c: QueryContext = {
      connection,
      file,
      rowsAt: { connection, source: `(${normalized})`, file, format },
      documentColumn,
      systemColumn,
      metrics,
      labelColumn,
    };
    const typeOf = new Map(columns.map((col) => [col.name, col.type]));
    let modes: SumMode[] = metrics.map((m) =>
      INTEGER_TYPE.test(typeOf.get(m) ?? "") ? "integer" : "decimal",
    );
    let summation: Summation = "exact";
    let rows: Record<string, unknown>[];
    const tell = (pass: ReadingPass) =>
      options.onProgress ? (f: number) => options.onProgress?.(pass, f) : undefined;
    try {
      rows = await withQueryProgress(connection, tell("aggregating"), () =>
        aggregatedRows(c, modes),
      );
      // A column typed as integers from a sample may still hold a fraction further down, or
      // sums too large for exact doubles: redo those metrics in DECIMAL.
      const redo = modes.map((mode, i) => mode === "integer" && !integerSumsExact(rows, i));
      if (redo.some(Boolean)) {
        modes = modes.map((mode, i) => (redo[i] ? "decimal" : mode));
        rows = await aggregatedRows(c, modes);
      }
    } catch (error) {
      if (!isDecimalOverflow(error)) throw explainFailure(error, file);
      // One thread reads the file in order, so the double sums are in file order.
      await connection.run("SET threads = 1");
      rows = await aggregatedRows(
        c,
        metrics.map(() => "double"),
      );
      summation = "double-single-thread";
    }
    await checkAggregatedRows(rows, c);
    const groups = await withResultValues(toGroups(rows, c), {
      connection,
      source: raw,
      documentColumn,
      systemColumn,
      limit: options.valuesUpTo ?? 0,
    });
    const total = rows.reduce((t, r) => t + (r.n as number), 0);
    const odd = metrics.map((_, i) => rows.reduce((t, r) => t + Number(r[`odd${i}`]), 0));
    const notices = [
      ...(await nearlyBinaryNotices(c.rowsAt, metrics, odd, total)),
      ...spacedIdNotices(groups, file, documentColumn),
      ...(await withQueryProgress(connection, tell("checking query ids"), () =>
        withMemoryLimit(connection, QUERY_CHECK_MEMORY, () =>
          repeatedQueryNotices(
            { connection, source: raw, file, format },
            names,
            [documentColumn, ...metrics],
            systemColumn,
          ),
        ),
      )),
    ];
    return {
      file,
      format,
      documentColumn,
      systemColumn,
      metrics,
      rows: total,
      groups,
      summation,
      notices,
    };
  }, options.threads);
}

/** DuckDB's memory budget for the query-id check (see withMemoryLimit). */
const QUERY_CHECK_MEMORY = "512MiB";

/** Integer-mode sums are exact when every value is whole and Σx² stays below 2⁵³. */
function integerSumsExact(rows: readonly Record<string, unknown>[], i: number): boolean {
  let squares = 0;
  for (const r of rows) {
    if (r[`whole${i}`] === false) return false;
    squares += Math.abs(r[`ss${i}`] as number);
  }
  return squares < 2 ** 53;
}

/** One aggregated column: its SQL (read as a DOUBLE or VARCHAR) and how its value is kept. */
interface AggregateColumn {
  readonly name: string;
  readonly sql: string;
  readonly kind: ColumnKind;
  /** bool_and read as 1/0/NaN, given back as true/false/null. */
  readonly boolean?: boolean;
}

function aggregateColumns(c: QueryContext, modes: readonly SumMode[]): AggregateColumn[] {
  const number = (name: string, sql: string): AggregateColumn => ({
    name,
    sql: `CAST(${sql} AS DOUBLE)`,
    kind: "number",
  });
  return [
    { name: "doc", sql: "doc", kind: "string" },
    { name: "sys", sql: "sys", kind: "string" },
    number("n", "count(*)"),
    // The label's aggregates only when there is one (count(DISTINCT) costs a second hash).
    ...(c.labelColumn
      ? [
          { name: "label", sql: "min(lab)", kind: "string" as const },
          { name: "label2", sql: "max(lab)", kind: "string" as const },
          number("labels", "count(DISTINCT lab)"),
        ]
      : []),
    ...c.metrics.flatMap((_, i) => {
      const v = `v${i}`;
      const { s, ss } = sumExpressions(v, modes[i] as SumMode);
      return [
        number(`s${i}`, s),
        number(`ss${i}`, ss),
        number(`min${i}`, `min(${v})`),
        number(`max${i}`, `max(${v})`),
        // 0/1 ⇔ whole numbers within [0, 1]; NaN or ±inf show up in min/max, NULLs in count.
        { ...number(`whole${i}`, `bool_and(${v} = floor(${v}))`), boolean: true },
        number(`present${i}`, `count(${v})`),
        number(`odd${i}`, `count(*) FILTER (WHERE ${v} <> 0 AND ${v} <> 1)`),
      ];
    }),
  ];
}

/**
 * One row per document × system, from one GROUP BY. The columns are read as vectors
 * (readColumns) rather than value by value, then given the row shape the checks use.
 */
async function aggregatedRows(
  c: QueryContext,
  modes: readonly SumMode[],
): Promise<Record<string, unknown>[]> {
  const columns = aggregateColumns(c, modes);
  const sql = `SELECT ${columns.map((col) => `${col.sql} AS ${col.name}`).join(", ")}
    FROM ${c.rowsAt.source} GROUP BY doc, sys ORDER BY sys, doc`;
  const data = await readColumns(
    c.connection,
    sql,
    columns.map((col) => col.kind),
  );
  const count = (data[0] as ColumnData).length;
  const rows: Record<string, unknown>[] = new Array(count);
  for (let r = 0; r < count; r++) {
    const row: Record<string, unknown> = {};
    columns.forEach((col, k) => {
      const value = (data[k] as ColumnData)[r];
      row[col.name] =
        col.boolean && typeof value === "number"
          ? Number.isNaN(value)
            ? null
            : value === 1
          : value;
    });
    rows[r] = row;
  }
  return rows;
}

/** A CSV value that is not a number under the pinned DOUBLE type: its line and column. */
function explainFailure(error: unknown, file: string): RagciError {
  const text = error instanceof Error ? error.message : String(error);
  const csv = /CSV Error on Line: (\d+)/.exec(text);
  if (csv) {
    const column = /converting column "([^"]+)"/.exec(text)?.[1];
    const value = /Could not convert string "([^"]*)"/.exec(text)?.[1];
    const what = column
      ? `column ${column} has ${value === undefined ? "a value" : `"${value}"`}, which is not a number`
      : duckDbMessage(error).replace(/^.*?: /, "");
    return new RagciError(
      "invalid-value",
      `${file} line ${csv[1]}: ${what}; fix or remove the row`,
      {
        file,
        row: Number(csv[1]),
        ...(column ? { column } : {}),
      },
    );
  }
  return unreadable(file, error);
}

/**
 * The row checks, from the aggregated rows: the file is scanned again only to name the first
 * bad line.
 */
async function checkAggregatedRows(
  rows: readonly Record<string, unknown>[],
  c: QueryContext,
): Promise<void> {
  if (rows.length === 0) {
    throw new RagciError("empty-input", `${c.file}: no rows; there is nothing to analyse`, {
      file: c.file,
    });
  }
  if (rows.some((r) => r.doc === null || String(r.doc).trim() === ""))
    throw await locateBadRow(c.rowsAt, rowChecks.document(c.documentColumn));
  if (c.systemColumn && rows.some((r) => r.sys === null || String(r.sys).trim() === ""))
    throw await locateBadRow(c.rowsAt, rowChecks.system(c.systemColumn));
  for (const [i, metric] of c.metrics.entries()) {
    const bad = (r: Record<string, unknown>) =>
      (r[`present${i}`] as number) < (r.n as number) ||
      !Number.isFinite(r[`min${i}`] as number) ||
      !Number.isFinite(r[`max${i}`] as number);
    if (rows.some(bad)) throw await locateBadRow(c.rowsAt, rowChecks.metric(metric, i));
  }
  if (c.labelColumn) {
    if (rows.some((r) => r.label === null || String(r.label).trim() === ""))
      throw await locateBadRow(c.rowsAt, rowChecks.label(c.labelColumn));
    const split = rows.find((r) => (r.labels as number) > 1);
    if (split)
      throw splitLabelError(c.file, String(split.doc), c.labelColumn, [
        String(split.label),
        String(split.label2),
      ]);
  }
}

function toGroups(rows: readonly Record<string, unknown>[], c: QueryContext): MetricAggregates[] {
  const systems = [...new Set(rows.map((r) => r.sys as string | null))];
  const groups: MetricAggregates[] = [];
  for (const system of systems) {
    const mine = rows.filter((r) => r.sys === system);
    c.metrics.forEach((metric, i) => {
      const binary = mine.every(
        (r) =>
          r[`whole${i}`] === true && (r[`min${i}`] as number) >= 0 && (r[`max${i}`] as number) <= 1,
      );
      groups.push({
        system,
        metric,
        ...(c.labelColumn ? { labels: mine.map((r) => String(r.label)) } : {}),
        stats: documentStats({
          ids: mine.map((r) => String(r.doc)),
          n: mine.map((r) => r.n as number),
          s: mine.map((r) => r[`s${i}`] as number),
          ss: mine.map((r) => r[`ss${i}`] as number),
          binary,
          min: mine.reduce((m, r) => Math.min(m, r[`min${i}`] as number), Number.POSITIVE_INFINITY),
          max: mine.reduce((m, r) => Math.max(m, r[`max${i}`] as number), Number.NEGATIVE_INFINITY),
          idsDistinct: true,
        }),
      });
    });
  }
  return groups;
}
