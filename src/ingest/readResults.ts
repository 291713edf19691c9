import { aggregateDocuments } from "./aggregateDocuments.js";
import { checkInputFile } from "./checkInput.js";
import { checkDocumentRows, documentGroups } from "./documentGroups.js";
import type { QueryContext } from "./documentRows.js";
import { withDuckDb } from "./duckdb.js";
import { type InputFormat, inputFormat, tableFunction } from "./inputFormat.js";
import { nearlyBinaryNotices, spacedIdNotices, systemsSplitNotices } from "./inputNotices.js";
import { explainJsonLines } from "./jsonLinesProblem.js";
import { normalizedRowsSql, textOf } from "./normalizedRows.js";
import { queryIdNotices } from "./queryIdCheck.js";
import {
  type ReadingPass,
  type ReadResultsOptions,
  readResultsLayoutRequest,
} from "./readResultsOptions.js";
import { readSmallResults } from "./readSmallResults.js";
import { resultsLayout } from "./resultsLayout.js";
import type { ResultsTable } from "./resultsTable.js";
import { withResultValues } from "./resultValues.js";
import { sampleColumns } from "./sampleColumns.js";
import { INTEGER_TYPE, type SumMode } from "./summation.js";

export type { ReadingPass, ReadResultsOptions } from "./readResultsOptions.js";
export { DOCUMENT_COLUMN_CANDIDATES } from "./resolveColumns.js";
export type { DocumentRanges, MetricAggregates, ResultsTable } from "./resultsTable.js";

/**
 * Reads per-query results (CSV, TSV, JSONL or Parquet) and aggregates them per document with
 * DuckDB's GROUP BY: n_d = count, s_d = Σx, ss_d = Σx², min, max, and whether every x is 0/1.
 * Sums follow summation.ts: exact whatever DuckDB's threads, with a stated double fallback.
 * A small CSV of 0/1 results gives the same table without starting DuckDB (readSmallResults.ts).
 *
 * @example // per system: documents, results (Σ n_d) and hits (Σ s_d); awk on the file agrees
 *   await readResults({ file: "examples/covidqa-retrieval.csv", doc: "doc_id", system: "system", metrics: ["hit5"] })
 *     .then((t) => t.groups.map((g) => [g.system, g.stats.ids.length, g.stats.n.reduce((a, b) => a + b), g.stats.s.reduce((a, b) => a + b)]))
 *   // => [["bm25", 98, 1380, 1009], ["tfidf", 98, 1380, 952]]
 */
export async function readResults(options: ReadResultsOptions): Promise<ResultsTable> {
  const file = options.displayName ?? options.file;
  await checkInputFile(options.file, file);
  const format = inputFormat(options.file, options.format);
  const small = format === "csv" ? await readSmallResults(options, file) : null;
  return small ?? readResultsWithDuckDb(options, file, format);
}

/** readResults through DuckDB: every input it takes, every refusal and notice. */
export async function readResultsWithDuckDb(
  options: ReadResultsOptions,
  file: string,
  format: InputFormat,
): Promise<ResultsTable> {
  return withDuckDb(async (connection) => {
    const sample = await sampleColumns(connection, options.file, format, file);
    const layout = resultsLayout(sample.columns, readResultsLayoutRequest(options), file);
    const { documentColumn, systemColumn, metrics, labelColumn } = layout;
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
    const tell = (pass: ReadingPass) =>
      options.onProgress ? (f: number) => options.onProgress?.(pass, f) : undefined;
    const typeOf = new Map(sample.columns.map((col) => [col.name, col.type]));
    const modes: SumMode[] = metrics.map((m) =>
      INTEGER_TYPE.test(typeOf.get(m) ?? "") ? "integer" : "decimal",
    );
    const { rows, summation } = await aggregateDocuments(
      c,
      modes,
      metrics.map((m) => sample.zeroOneAtStart(m)),
      tell("aggregating"),
    ).catch(async (error) => {
      // A JSON line DuckDB's first look did not reach: named by its line (DuckDB's is one off).
      throw (await explainJsonLines(options.file, file, format)) ?? error;
    });
    await checkDocumentRows(rows, c);
    const groups = await withResultValues(documentGroups(rows, c), {
      connection,
      source: raw,
      documentColumn,
      systemColumn,
      limit: options.valuesUpTo ?? 0,
    });
    const total = rows.n.reduce((t, n) => t + n, 0);
    const odd = rows.metrics.map((m) => (m.odd as Float64Array).reduce((t, k) => t + k, 0));
    const notices = [
      ...(await nearlyBinaryNotices(c.rowsAt, metrics, odd, total)),
      ...systemsSplitNotices(groups, options.system ? null : systemColumn, file),
      ...spacedIdNotices(groups, file, documentColumn),
      ...(await queryIdNotices(
        { connection, source: raw, file, format },
        layout.queryCheck,
        systemColumn,
        total,
        tell("checking query ids"),
      )),
    ];
    return {
      file,
      format,
      documentColumn,
      systemColumn,
      queryColumn: layout.queryCheck.column,
      metrics,
      rows: total,
      groups,
      summation,
      notices,
    };
  }, options.threads);
}
