import type { DuckDBConnection } from "@duckdb/node-api";
import { documentStats } from "../core/aggregate/documentStats.js";
import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { checkDelimitedLayout, checkInputFile } from "./checkInput.js";
import { duckDbMessage, queryRows, unreadable, withDuckDb } from "./duckdb.js";
import { type InputFormat, inputFormat, sqlIdentifier, tableFunction } from "./inputFormat.js";
import { findColumn, QUERY_COLUMN_CANDIDATES, resolveColumn } from "./resolveColumns.js";
import { firstRowWhere, locateBadRow } from "./validateRows.js";

export const DOCUMENT_COLUMN_CANDIDATES = ["doc_id", "doc", "document_id", "document"];

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
}

export interface MetricAggregates {
  readonly system: string | null;
  readonly metric: string;
  readonly stats: DocumentStats;
  /** Per-query values grouped by document (ids order), sorted within each; non-binary only. */
  readonly values?: ResultValues;
  /** The documentLabel of each document, aligned with stats.ids. */
  readonly labels?: readonly string[];
}

export interface ResultsTable {
  readonly file: string;
  readonly format: InputFormat;
  readonly documentColumn: string;
  readonly systemColumn: string | null;
  readonly metrics: readonly string[];
  /** Rows read (results, summed over systems). */
  readonly rows: number;
  /** One entry per system × metric, systems in code-point order, then metrics as requested. */
  readonly groups: readonly MetricAggregates[];
  /**
   * How the sums were computed: "exact" (whole numbers as doubles, others in DECIMAL(38, 18)),
   * or "double-single-thread" (values too large for DECIMAL, added in file order).
   */
  readonly summation: "exact" | "double-single-thread";
  /** Things about the input a reader should know, each true of this file (shown as warnings). */
  readonly notices: readonly string[];
}

/**
 * The columns of an input file, after checking it is a non-empty file and, for CSV/TSV, that
 * its header has no repeated name and its rows line up (naming the first line that does not).
 */
export async function describeColumns(
  connection: DuckDBConnection,
  path: string,
  format: InputFormat,
  file: string,
): Promise<{ name: string; type: string }[]> {
  await checkInputFile(path, file);
  let columns: { name: string; type: string }[];
  try {
    const rows = await queryRows(
      connection,
      `DESCRIBE SELECT * FROM ${tableFunction(path, format)}`,
    );
    columns = rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  } catch (error) {
    await checkDelimitedLayout(path, file, format, []);
    throw unreadable(file, error);
  }
  await checkDelimitedLayout(
    path,
    file,
    format,
    columns.map((c) => c.name),
  );
  return columns;
}

const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL.*|BOOLEAN)$/;

function defaultMetric(
  columns: readonly { name: string; type: string }[],
  excluded: readonly string[],
  file: string,
): string {
  const skip = new Set([...excluded, "rank"]);
  const numeric = columns.filter((c) => NUMERIC.test(c.type) && !skip.has(c.name));
  const candidates = numeric.filter((c) => findColumn(QUERY_COLUMN_CANDIDATES, [c.name]) === null);
  if (candidates.length === 1) return (candidates[0] as { name: string }).name;
  throw new RagciError(
    "missing-column",
    `${file}: name the metric with --metric (numeric columns: ${candidates.map((c) => c.name).join(", ") || "none"})`,
    { file },
  );
}

/**
 * Reads per-query results (CSV, TSV, JSONL or Parquet) and aggregates them per document with
 * DuckDB's GROUP BY: n_d = count, s_d = Σx, ss_d = Σx², min, max, and whether every x is 0/1.
 *
 * Sums are exact in DECIMAL(38, 18) (each value rounded to 18 decimals, then integer-exact
 * addition), so they do not depend on how DuckDB splits the work between threads: identical
 * input gives bit-identical output. Values too large for that (|Σx²| ≥ 10²⁰) fall back to
 * double sums on one thread, in file order.
 */
export async function readResults(options: ReadResultsOptions): Promise<ResultsTable> {
  const file = options.displayName ?? options.file;
  await checkInputFile(options.file, file);
  const format = inputFormat(options.file, options.format);
  return withDuckDb(async (connection) => {
    const columns = await describeColumns(connection, options.file, format, file);
    const names = columns.map((c) => c.name);
    if (names.length === 0) throw new RagciError("empty-input", `${file}: no columns`, { file });
    const documentColumn = options.doc
      ? resolveColumn(options.doc, names, file, "document")
      : findColumn(DOCUMENT_COLUMN_CANDIDATES, names);
    if (documentColumn === null) {
      throw new RagciError(
        "missing-column",
        `${file}: no document column (looked for ${DOCUMENT_COLUMN_CANDIDATES.join(", ")}); name it with --doc (columns: ${names.join(", ")})`,
        { file },
      );
    }
    const systemColumn = options.system
      ? resolveColumn(options.system, names, file, "system")
      : options.systemIfPresent && names.includes(options.systemIfPresent)
        ? options.systemIfPresent
        : null;
    const metrics =
      options.metrics && options.metrics.length > 0
        ? options.metrics.map((m) => resolveColumn(m, names, file, "metric"))
        : [defaultMetric(columns, [documentColumn, ...(systemColumn ? [systemColumn] : [])], file)];
    for (const metric of metrics) {
      if (metric === documentColumn || metric === systemColumn) {
        throw new RagciError(
          "invalid-option",
          `${file}: column ${metric} cannot be both a metric and an id`,
          {
            file,
            column: metric,
          },
        );
      }
    }
    const pinned: Record<string, string> = { [documentColumn]: "VARCHAR" };
    if (systemColumn) pinned[systemColumn] = "VARCHAR";
    for (const m of metrics) pinned[m] = "DOUBLE";
    const source = tableFunction(
      options.file,
      format,
      format === "csv" || format === "tsv" ? pinned : {},
    );
    const labelColumn = options.documentLabel
      ? resolveColumn(options.documentLabel, names, file, "design")
      : null;
    const context = {
      connection,
      source,
      file,
      format,
      documentColumn,
      systemColumn,
      metrics,
      labelColumn,
    };
    // Whole-number columns (0/1 hits, counts) are summed as doubles: every partial sum is an
    // integer below 2⁵³, so the sum is exact whatever the order. Others are summed exactly in
    // DECIMAL(38, 18). Either way the result does not depend on DuckDB's threads.
    const typeOf = new Map(columns.map((c) => [c.name, c.type]));
    let modes: SumMode[] = metrics.map((m) =>
      INTEGER_TYPE.test(typeOf.get(m) ?? "") ? "integer" : "decimal",
    );
    let summation: ResultsTable["summation"] = "exact";
    let rows: Record<string, unknown>[];
    try {
      rows = await queryRows(connection, aggregationSql(context, modes));
      // A column typed as integers from a sample may still hold a fraction further down, or
      // sums too large for exact doubles: redo those metrics in DECIMAL.
      const redo = modes.map((mode, i) => mode === "integer" && !integerSumsExact(rows, i));
      if (redo.some(Boolean)) {
        modes = modes.map((mode, i) => (redo[i] ? "decimal" : mode));
        rows = await queryRows(connection, aggregationSql(context, modes));
      }
    } catch (error) {
      const message = duckDbMessage(error);
      if (/out of range|overflow|to DECIMAL/i.test(message) && !/CSV Error/.test(message)) {
        await connection.run("SET threads = 1");
        rows = await queryRows(
          connection,
          aggregationSql(
            context,
            metrics.map(() => "double"),
          ),
        );
        summation = "double-single-thread";
      } else {
        throw await explainFailure(error, context);
      }
    }
    const groups = await withValues(
      await toGroups(rows, context),
      context,
      options.valuesUpTo ?? 0,
    );
    const notices = [
      ...(await nearlyBinaryNotices(rows, context)),
      ...spacedIdNotices(groups, context),
      ...(await repeatedQueryNotices(names, context)),
    ];
    return {
      file,
      format,
      documentColumn,
      systemColumn,
      metrics,
      rows: rows.reduce((total, r) => total + (r.n as number), 0),
      groups,
      summation,
      notices,
    };
  }, options.threads);
}

/** At most this share of rows off 0/1 makes a column "0/1 except for a few rows" (a typo?). */
const NEARLY_BINARY_SHARE = 0.01;

/**
 * A column of 0/1 values but for a few rows is analysed as a score (no rate, no logit): say
 * so, naming the first such line, since a single 2 or −1 is more often a typo than a score.
 */
async function nearlyBinaryNotices(
  rows: readonly Record<string, unknown>[],
  c: QueryContext,
): Promise<string[]> {
  const notices: string[] = [];
  for (let i = 0; i < c.metrics.length; i++) {
    let odd = 0;
    let total = 0;
    for (const r of rows) {
      odd += Number(r[`odd${i}`]);
      total += r.n as number;
    }
    if (odd === 0 || odd > NEARLY_BINARY_SHARE * total) continue;
    const m = sqlIdentifier(c.metrics[i] as string);
    const first = await firstRowWhere(
      c,
      `TRY_CAST(${m} AS DOUBLE) <> 0 AND TRY_CAST(${m} AS DOUBLE) <> 1`,
    );
    notices.push(
      `${c.file}${first ? ` ${first.where}` : ""}: column ${c.metrics[i]} is 0/1 in all but ${odd} of ${total} rows, so it is analysed as a score, not a 0/1 rate; if ${odd === 1 ? "that row is a typo" : "those rows are typos"}, fix ${odd === 1 ? "it" : "them"} and re-run`,
    );
  }
  return notices;
}

/** Ids equal but for surrounding spaces are two documents to DuckDB; likely one to the user. */
function spacedIdNotices(groups: readonly MetricAggregates[], c: QueryContext): string[] {
  const notices: string[] = [];
  const seen = new Set<string | null>();
  for (const group of groups) {
    if (seen.has(group.system)) continue;
    seen.add(group.system);
    const byTrimmed = new Map<string, string[]>();
    for (const id of group.stats.ids) {
      const key = id.trim();
      byTrimmed.set(key, [...(byTrimmed.get(key) ?? []), id]);
    }
    const clashes = [...byTrimmed.values()].filter((ids) => ids.length > 1);
    const first = clashes[0];
    if (first) {
      notices.push(
        `${c.file}: column ${c.documentColumn} has ids that differ only by surrounding spaces (${first.map((id) => JSON.stringify(id)).join(" and ")}${clashes.length > 1 ? `, and ${clashes.length - 1} more such set${clashes.length > 2 ? "s" : ""}` : ""}); they are counted as different documents — remove the spaces if they are one`,
      );
    }
  }
  return notices;
}

/**
 * With a query id column, each query should give one result per system: a repeated id
 * (a duplicated row?) counts that query twice. Reported, not refused.
 */
async function repeatedQueryNotices(names: readonly string[], c: QueryContext): Promise<string[]> {
  const query = findColumn(QUERY_COLUMN_CANDIDATES, names);
  if (query === null || query === c.documentColumn || c.metrics.includes(query)) return [];
  const q = `CAST(${sqlIdentifier(query)} AS VARCHAR)`;
  const system = c.systemColumn ? `CAST(${sqlIdentifier(c.systemColumn)} AS VARCHAR)` : "NULL";
  const repeated = await queryRows(
    c.connection,
    `SELECT q, system, k, count(*) OVER () AS repeatedIds FROM (SELECT ${q} AS q, ${system} AS system, count(*) AS k FROM ${c.source} GROUP BY ALL HAVING count(*) > 1) ORDER BY system, q LIMIT 1`,
  );
  const first = repeated[0];
  if (!first) return [];
  const more = Number(first.repeatedIds) - 1;
  return [
    `${c.file}: query id ${first.q} appears ${first.k} times${first.system === null ? "" : ` for system ${first.system}`}${more > 0 ? ` (and ${more} more query ids repeat)` : ""} in column ${query}; each query is counted as many times as it appears — remove duplicated rows if that is not intended`,
  ];
}

interface QueryContext {
  readonly connection: DuckDBConnection;
  readonly source: string;
  readonly file: string;
  readonly format: InputFormat;
  readonly documentColumn: string;
  readonly systemColumn: string | null;
  readonly metrics: readonly string[];
  readonly labelColumn: string | null;
}

type SumMode = "integer" | "decimal" | "double";

const INTEGER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|BOOLEAN)$/;

/** Integer-mode sums are exact when every value is whole and Σx² stays below 2⁵³. */
function integerSumsExact(rows: readonly Record<string, unknown>[], i: number): boolean {
  let squares = 0;
  for (const r of rows) {
    if (r[`whole${i}`] === false) return false;
    squares += Math.abs(r[`ss${i}`] as number);
  }
  return squares < 2 ** 53;
}

function aggregationSql(c: QueryContext, modes: readonly SumMode[]): string {
  const values = c.metrics
    .map((m, i) => `TRY_CAST(${sqlIdentifier(m)} AS DOUBLE) AS v${i}`)
    .join(", ");
  const system = c.systemColumn
    ? `CAST(${sqlIdentifier(c.systemColumn)} AS VARCHAR)`
    : "NULL::VARCHAR";
  const aggregates = c.metrics
    .map((_, i) => {
      const v = `v${i}`;
      const finite = `CASE WHEN isfinite(${v}) THEN ${v} END`;
      const sums =
        modes[i] === "decimal"
          ? [
              `sum(CAST(${finite} AS DECIMAL(38, 18)))::DOUBLE AS s${i}`,
              `sum(CAST(${finite} * ${finite} AS DECIMAL(38, 18)))::DOUBLE AS ss${i}`,
            ]
          : [`sum(${v}) AS s${i}`, `sum(${v} * ${v}) AS ss${i}`];
      return [
        ...sums,
        `min(${v}) AS min${i}`,
        `max(${v}) AS max${i}`,
        // 0/1 ⇔ whole numbers within [0, 1]; NaN or ±inf show up in min/max, NULLs in count.
        `bool_and(${v} = floor(${v})) AS whole${i}`,
        `count(${v}) AS present${i}`,
        `count(*) FILTER (WHERE ${v} <> 0 AND ${v} <> 1) AS odd${i}`,
      ].join(", ");
    })
    .join(", ");
  const label = c.labelColumn
    ? `CAST(${sqlIdentifier(c.labelColumn)} AS VARCHAR)`
    : "NULL::VARCHAR";
  return `SELECT doc, system, count(*) AS n, min(label) AS label, count(DISTINCT label) AS labels, ${aggregates}
    FROM (SELECT CAST(${sqlIdentifier(c.documentColumn)} AS VARCHAR) AS doc, ${system} AS system, ${label} AS label, ${values} FROM ${c.source})
    GROUP BY doc, system ORDER BY system, doc`;
}

async function explainFailure(error: unknown, c: QueryContext): Promise<RagciError> {
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
      `${c.file} line ${csv[1]}: ${what}; fix or remove the row`,
      { file: c.file, row: Number(csv[1]), ...(column ? { column } : {}) },
    );
  }
  return unreadable(c.file, error);
}

async function toGroups(
  rows: Record<string, unknown>[],
  c: QueryContext,
): Promise<MetricAggregates[]> {
  if (rows.length === 0) {
    throw new RagciError("empty-input", `${c.file}: no rows; there is nothing to analyse`, {
      file: c.file,
    });
  }
  for (const row of rows) {
    if (row.doc === null || String(row.doc).trim() === "") {
      throw await locateBadRow(
        c,
        `trim(CAST(${sqlIdentifier(c.documentColumn)} AS VARCHAR)) = '' OR ${sqlIdentifier(c.documentColumn)} IS NULL`,
        `column ${c.documentColumn} is empty; every result needs a document id`,
        c.documentColumn,
      );
    }
    if (c.systemColumn && row.system === null) {
      throw await locateBadRow(
        c,
        `${sqlIdentifier(c.systemColumn)} IS NULL`,
        `column ${c.systemColumn} is empty; every result needs a system`,
        c.systemColumn,
      );
    }
  }
  for (let i = 0; i < c.metrics.length; i++) {
    const bad = (r: Record<string, unknown>) =>
      (r[`present${i}`] as number) < (r.n as number) ||
      !Number.isFinite(r[`min${i}`] as number) ||
      !Number.isFinite(r[`max${i}`] as number);
    if (rows.some(bad)) {
      const m = sqlIdentifier(c.metrics[i] as string);
      throw await locateBadRow(
        c,
        `TRY_CAST(${m} AS DOUBLE) IS NULL OR NOT isfinite(TRY_CAST(${m} AS DOUBLE))`,
        `column ${c.metrics[i]} is empty, not a number, NaN or infinite; every result needs a finite value`,
        c.metrics[i] as string,
      );
    }
  }
  if (c.labelColumn) {
    const label = c.labelColumn;
    const split = rows.find((r) => (r.labels as number) > 1);
    if (split) {
      throw new RagciError(
        "invalid-value",
        `${c.file}: document ${split.doc} has more than one ${label}; each document belongs to one ${label}`,
        { file: c.file, column: label, document: String(split.doc) },
      );
    }
    const missing = rows.find((r) => r.label === null || String(r.label).trim() === "");
    if (missing) {
      throw new RagciError(
        "invalid-value",
        `${c.file}: document ${missing.doc} has no ${label}; every result needs one`,
        { file: c.file, column: label, document: String(missing.doc) },
      );
    }
  }
  const systems = [...new Set(rows.map((r) => r.system as string | null))];
  const groups: MetricAggregates[] = [];
  for (const system of systems) {
    const mine = rows.filter((r) => r.system === system);
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

/**
 * Attaches the per-query values of each non-binary metric (documents in id order, values
 * sorted inside each document, so the order does not depend on the file's row order).
 */
async function withValues(
  groups: MetricAggregates[],
  c: QueryContext,
  limit: number,
): Promise<MetricAggregates[]> {
  const out: MetricAggregates[] = [];
  for (const group of groups) {
    const total = group.stats.n.reduce((a, b) => a + b, 0);
    if (group.stats.binary || total > limit) {
      out.push(group);
      continue;
    }
    const metric = sqlIdentifier(group.metric);
    const system =
      c.systemColumn === null
        ? ""
        : `WHERE CAST(${sqlIdentifier(c.systemColumn)} AS VARCHAR) = '${String(group.system).replaceAll("'", "''")}'`;
    const reader = await c.connection.runAndReadAll(
      `SELECT CAST(${sqlIdentifier(c.documentColumn)} AS VARCHAR) AS doc, CAST(${metric} AS DOUBLE) AS v FROM ${c.source} ${system} ORDER BY doc, v`,
    );
    const [, values] = reader.getColumnsJS() as [string[], number[]];
    const offsets = new Uint32Array(group.stats.n.length + 1);
    for (let d = 0; d < group.stats.n.length; d++)
      offsets[d + 1] = (offsets[d] as number) + (group.stats.n[d] as number);
    out.push({ ...group, values: { offsets, values: Float64Array.from(values) } });
  }
  return out;
}
