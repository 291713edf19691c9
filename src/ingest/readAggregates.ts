import { RagciError } from "../core/errors.js";
import { checkInputFile } from "./checkInput.js";
import { describeColumns } from "./describeColumns.js";
import { documentStatsIn } from "./documentStatsIn.js";
import { queryRows, unreadable, withDuckDb } from "./duckdb.js";
import { inputFormat, sqlIdentifier, sqlString, tableFunction } from "./inputFormat.js";
import { normalizedRowsSql } from "./normalizedRows.js";
import { type ColumnData, type ColumnKind, readColumns } from "./readColumns.js";
import { documentColumn, labelColumn, resolveColumn, resolveMetrics } from "./resolveColumns.js";
import type { MetricAggregates, ResultsTable } from "./resultsTable.js";
import {
  type BadRowContext,
  isBlankId,
  locateBadRow,
  type RowCheck,
  rowChecks,
  splitLabelError,
} from "./validateRows.js";

export interface ReadAggregatesOptions {
  readonly file: string;
  readonly displayName?: string;
  readonly format?: string | null;
  readonly doc?: string | null;
  /** Keep only these metrics (of a `metric` column), or name the single metric. */
  readonly metrics?: readonly string[] | null;
  readonly system?: string | null;
  readonly threads?: number;
  /** A per-document label column (a design's stratum or psu); one value per document. */
  readonly documentLabel?: string | null;
  /**
   * Add the rows of a document listed more than once (`ragci merge`: concatenated shards);
   * otherwise such a document is refused, as a per-document table has one row per document.
   */
  readonly addRepeatedDocuments?: boolean;
}

/**
 * Reads a per-document table: `doc, n, s[, ss][, min, max]`, optionally with `system` and
 * `metric` columns (the long form written by --write-aggregates). A document on several rows
 * (of one system × metric) is refused, unless `addRepeatedDocuments` (merge) asks to add them:
 * concatenated shard aggregates then merge exactly. Without `ss` the metric is taken as 0/1
 * (ss = s, s must be a whole number in [0, n]).
 */
export async function readAggregates(options: ReadAggregatesOptions): Promise<ResultsTable> {
  const file = options.displayName ?? options.file;
  await checkInputFile(options.file, file);
  const format = inputFormat(options.file, options.format);
  return withDuckDb(async (connection) => {
    const columns = (await describeColumns(connection, options.file, format, file)).map(
      (c) => c.name,
    );
    const doc = documentColumn(options.doc, columns, file);
    const n = resolveColumn("n", columns, file, "count (n)");
    const s = resolveColumn("s", columns, file, "sum (s)");
    const ss = columns.includes("ss") ? "ss" : null;
    const min = columns.includes("min") ? "min" : null;
    const max = columns.includes("max") ? "max" : null;
    const system = options.system
      ? resolveColumn(options.system, columns, file, "system")
      : columns.includes("system")
        ? "system"
        : null;
    const metric = columns.includes("metric") ? "metric" : null;
    const label = labelColumn(options.documentLabel, columns, file);
    const source = tableFunction(options.file, format);
    const id = sqlIdentifier;
    // The row checks read the table normalised: doc and lab as text, n as v0 and s as v1.
    const context: BadRowContext = {
      connection,
      source: `(${normalizedRowsSql({ source, documentColumn: doc, metrics: [n, s], labelColumn: label })})`,
      file,
      format,
    };
    // One row per document: the values are taken as they are (a written table reads back
    // bit for bit). Repeated documents (concatenated shards) are added in sorted order, so the
    // result does not depend on how DuckDB splits the rows between threads.
    // Only the columns the file has are selected (and fetched); the rest are filled in here.
    type Column = {
      name: string;
      kind: ColumnKind;
      sql: (merged: boolean) => string | null;
      /** Part of the sort key (and, merged, of the grouping). */
      key?: boolean;
    };
    const number = (c: string) => `TRY_CAST(${id(c)} AS DOUBLE)`;
    const sum = (c: string) => (merged: boolean) =>
      merged ? `list_sum(list_sort(list(${number(c)})))` : number(c);
    const extreme = (f: "min" | "max", c: string) => (merged: boolean) =>
      merged ? `${f}(${number(c)})` : number(c);
    const text = (c: string | null) => () => (c ? `CAST(${id(c)} AS VARCHAR)` : null);
    const labelText = label ? `CAST(${id(label)} AS VARCHAR)` : null;
    const wantedColumns: Column[] = [
      { name: "system", kind: "string", sql: text(system), key: true },
      { name: "metric", kind: "string", sql: text(metric), key: true },
      { name: "doc", kind: "string", sql: text(doc), key: true },
      { name: "n", kind: "number", sql: sum(n) },
      { name: "s", kind: "number", sql: sum(s) },
      { name: "ss", kind: "number", sql: ss ? sum(ss) : () => null },
      { name: "mn", kind: "number", sql: min ? extreme("min", min) : () => null },
      { name: "mx", kind: "number", sql: max ? extreme("max", max) : () => null },
      // Merged rows of one document must agree on its label: min, and how many distinct.
      {
        name: "label",
        kind: "string",
        sql: (merged) => (labelText && merged ? `min(${labelText})` : labelText),
      },
      {
        name: "labels",
        kind: "number",
        sql: (merged) => (labelText && merged ? `count(DISTINCT ${labelText})::DOUBLE` : null),
      },
    ];
    const presentColumns = (merged: boolean) => wantedColumns.filter((c) => c.sql(merged) !== null);
    const select = (merged: boolean) => {
      const present = presentColumns(merged);
      const keys = present.filter((c) => c.key).map((c) => c.name);
      return `SELECT ${present.map((c) => `${c.sql(merged)} AS ${c.name}`).join(", ")}
        FROM ${source} ${merged ? "GROUP BY ALL" : ""} ORDER BY ${keys.join(", ")}`;
    };
    const run = async (merged: boolean) => {
      const present = presentColumns(merged);
      const data = await readColumns(
        connection,
        select(merged),
        present.map((c) => c.kind),
      ).catch((error) => {
        throw unreadable(file, error);
      });
      const rows = (data[0] as ColumnData).length;
      return wantedColumns.map((c) => {
        const at = present.indexOf(c);
        if (at >= 0) return data[at] as ColumnData;
        // An absent system or metric column is empty: every index reads undefined (no name).
        return c.kind === "string" ? [] : new Float64Array(rows).fill(Number.NaN);
      }) as [
        (string | null)[],
        (string | null)[],
        (string | null)[],
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        (string | null)[],
        Float64Array,
      ];
    };
    let columnsRead = await run(false);
    if (columnsRead[2].length === 0) {
      throw new RagciError("empty-input", `${file}: no rows; there is nothing to analyse`, {
        file,
      });
    }
    // Bad counts and sums are checked on the rows as read; the file is scanned again only to
    // name the first bad line.
    const [, , docs0, ns0, sums0] = columnsRead;
    const badCount: RowCheck = {
      condition: "v0 IS NULL OR v0 <= 0 OR v0 <> round(v0)",
      problem: `column ${n} must be a whole number of results ≥ 1`,
      column: n,
    };
    const badSum: RowCheck = {
      condition: "v1 IS NULL OR NOT isfinite(v1)",
      problem: `column ${s} must be a finite number`,
      column: s,
    };
    if (ns0.some((x) => !(x >= 1) || !Number.isInteger(x)))
      throw await locateBadRow(context, badCount);
    if (sums0.some((x) => !Number.isFinite(x))) throw await locateBadRow(context, badSum);
    if (docs0.some(isBlankId)) throw await locateBadRow(context, rowChecks.document(doc));
    // Rows come sorted by key, so a repeated document is next to its twin.
    const [sys0, met0] = columnsRead;
    const sameKey = (i: number, j: number) =>
      docs0[i] === docs0[j] && sys0[i] === sys0[j] && met0[i] === met0[j];
    let twin = 1;
    while (twin < docs0.length && !sameKey(twin, twin - 1)) twin++;
    const repeated = twin < docs0.length;
    if (repeated && !options.addRepeatedDocuments) {
      let end = twin;
      while (end < docs0.length && sameKey(end, twin)) end++;
      throw repeatedDocument(file, {
        doc: String(docs0[twin]),
        system: system ? (sys0[twin] ?? null) : null,
        metric: metric ? (met0[twin] ?? null) : null,
        rows: end - twin + 1,
      });
    }
    if (repeated) columnsRead = await run(true);
    const [systems, metrics, docsRead, ns, sums, squares, mins, maxs, labels, labelCounts] =
      columnsRead;
    if (label) {
      if (labels.some(isBlankId)) throw await locateBadRow(context, rowChecks.label(label));
      const split = repeated ? labelCounts.findIndex((c) => c > 1) : -1;
      if (split >= 0) {
        const values = await queryRows(
          connection,
          `SELECT DISTINCT lab FROM ${context.source} WHERE doc = ${sqlString(String(docsRead[split]))} ORDER BY lab LIMIT 2`,
        );
        throw splitLabelError(
          file,
          String(docsRead[split]),
          label,
          values.map((r) => String(r.lab)),
        );
      }
    }
    const docs = docsRead as string[];
    const wanted =
      options.metrics && options.metrics.length > 0
        ? metricsWanted(options.metrics, metric === null ? null : metrics, file)
        : null;
    const groups: MetricAggregates[] = [];
    let start = 0;
    while (start < docs.length) {
      let end = start;
      while (
        end < docs.length &&
        systems[end] === systems[start] &&
        metrics[end] === metrics[start]
      )
        end++;
      // Without a metric column the table is one metric: named by --metric, else by its sum column.
      const metricName = metrics[start] ?? wanted?.[0] ?? s;
      if (!wanted || (metrics[start] ?? null) === null || wanted.includes(metricName)) {
        const sq = ss !== null ? squares.subarray(start, end) : undefined;
        // A missing (NULL → NaN) min or max makes the range unknown.
        const range = (values: Float64Array, pick: (a: number, b: number) => number) => {
          let out = values[start] as number;
          for (let i = start + 1; i < end; i++) out = pick(out, values[i] as number);
          return Number.isNaN(out) ? null : out;
        };
        const lo = min ? range(mins, Math.min) : null;
        const hi = max ? range(maxs, Math.max) : null;
        const sumsHere = sums.subarray(start, end);
        const nsHere = ns.subarray(start, end);
        const binary = sq
          ? sq.every(
              (v, i) =>
                v === sumsHere[i] && Number.isInteger(v) && v >= 0 && v <= (nsHere[i] as number),
            ) &&
            (lo === null || lo >= 0) &&
            (hi === null || hi <= 1)
          : true;
        groups.push({
          system: systems[start] ?? null,
          metric: metricName,
          stats: documentStatsIn(file, {
            ids: start === 0 && end === docs.length ? docs : docs.slice(start, end),
            n: nsHere,
            s: sumsHere,
            ...(sq ? { ss: sq } : {}),
            binary,
            min: lo,
            max: hi,
            idsDistinct: true,
          }),
          ...(label ? { labels: labels.slice(start, end) as string[] } : {}),
          // Each document's range as its row gives it (rows added: the least and greatest).
          ...(min || max
            ? { ranges: { min: mins.subarray(start, end), max: maxs.subarray(start, end) } }
            : {}),
        });
      }
      start = end;
    }
    return {
      file,
      format,
      documentColumn: doc,
      systemColumn: system,
      metrics: [...new Set(groups.map((g) => g.metric))],
      rows: groups
        .filter((g) => g.metric === groups[0]?.metric)
        .reduce((t, g) => t + g.stats.n.reduce((a, b) => a + b, 0), 0),
      groups,
      summation: "exact",
      notices: [],
    };
  }, options.threads);
}

/** A document on several rows of a per-document table (of one system × metric). */
function repeatedDocument(
  file: string,
  at: {
    readonly doc: string;
    readonly system: string | null;
    readonly metric: string | null;
    readonly rows: number;
  },
): RagciError {
  const of = [
    at.system === null ? null : `system ${at.system}`,
    at.metric === null ? null : `metric ${at.metric}`,
  ].filter((x) => x !== null);
  return new RagciError(
    "invalid-value",
    `${file}: document "${at.doc}"${of.length > 0 ? ` (${of.join(", ")})` : ""} is on ${at.rows} rows; a per-document table has one row per document: to add shards' tables, use ragci merge`,
    { file, document: at.doc },
  );
}

/**
 * The metrics asked for, named as the table's metric column names them: "hit@5" finds hit5 and
 * "mrr" finds rr as they would find the columns of a per-query file, so a table ragci wrote
 * re-runs with the flags that wrote it. Without a metric column the names are kept.
 *
 * @throws RagciError naming a metric the column does not have, or one asked twice
 */
function metricsWanted(
  wanted: readonly string[],
  column: readonly (string | null | undefined)[] | null,
  file: string,
): readonly string[] {
  if (column === null) return wanted;
  const found = [...new Set(column.filter((m): m is string => typeof m === "string"))];
  const missing = wanted.filter((m) => {
    try {
      resolveColumn(m, found, file, "metric");
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0)
    throw new RagciError(
      "missing-column",
      `${file}: no metric ${missing.join(", ")} in column metric (found ${found.join(", ")})`,
      { file },
    );
  return resolveMetrics(wanted, found, file);
}
