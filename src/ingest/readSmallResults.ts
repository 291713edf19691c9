import { refuseAlikeNames } from "./distinctColumnNames.js";
import { documentGroups } from "./documentGroups.js";
import type { DocumentRows, MetricColumns } from "./documentRows.js";
import { spacedIdNotices, systemsSplitNotices } from "./inputNotices.js";
import { type ReadResultsOptions, readResultsLayoutRequest } from "./readResultsOptions.js";
import { type ResultsLayout, resultsLayout } from "./resultsLayout.js";
import type { ResultsTable } from "./resultsTable.js";
import { readSmallCsv, type SmallCsv } from "./smallCsv.js";

/**
 * readResults for a small CSV of 0/1 metrics, without starting DuckDB: a 20-document run spent
 * most of its reading in loading DuckDB's library (25 ms), creating its database (20 ms) and
 * three queries (30 ms), for 124 rows. It returns the very table DuckDB's reading gives, or
 * null — and the caller reads the file with DuckDB — whenever anything is outside what it
 * handles: a file outside smallCsv.ts's subset, a layout DuckDB's reading would refuse or warn
 * about, a metric not all 0 and 1, an empty id, a design label, a repeated query id, a query id
 * column of fractions. So every refusal and every notice but "several systems" comes from DuckDB's path;
 * test/ingest/readSmallResults.test.ts holds the two paths equal on generated files.
 *
 * What it computes is what the DuckDB path's SQL does on such a file: rows grouped by system,
 * then document (ids as written, as the reader pins them to VARCHAR), ordered by code points
 * (DuckDB's byte order, the same for ASCII); n, Σx and the extremes per document (Σx² = Σx for
 * 0/1, all sums exact in integers).
 */
export async function readSmallResults(
  options: ReadResultsOptions,
  displayName: string,
): Promise<ResultsTable | null> {
  if (options.documentLabel || /\.(gz|zst)$/i.test(options.file)) return null;
  const csv = await readSmallCsv(options.file);
  if (csv === null) return null;
  const layout = layoutOrNull(csv, options, displayName);
  if (layout === null || layout.labelColumn !== null) return null;
  const column = (name: string) => csv.columns[csv.names.indexOf(name)] as readonly string[];
  const metricValues = layout.metrics.map(column);
  if (!metricValues.every((values) => values.every((v) => v === "0" || v === "1"))) return null;
  if (!layout.metrics.every((m) => csv.types[csv.names.indexOf(m)] === "BIGINT")) return null;
  const docs = column(layout.documentColumn);
  const systems = layout.systemColumn ? column(layout.systemColumn) : null;
  // An empty id is NULL to DuckDB: refused (a document or system) or one repeated query id.
  const ids = [layout.documentColumn, layout.systemColumn, layout.queryCheck.column];
  if (ids.some((name) => name !== null && column(name).includes(""))) return null;
  if (queryIdsRepeatOrUncertain(csv, layout, systems)) return null;

  const rows = documentRows(docs, systems, metricValues);
  const context = { file: displayName, metrics: layout.metrics, labelColumn: null };
  const groups = documentGroups(rows, context);
  return {
    file: displayName,
    format: "csv",
    documentColumn: layout.documentColumn,
    systemColumn: layout.systemColumn,
    queryColumn: layout.queryCheck.column,
    metrics: layout.metrics,
    rows: docs.length,
    groups,
    summation: "exact",
    notices: [
      ...systemsSplitNotices(groups, options.system ? null : layout.systemColumn, displayName),
      ...spacedIdNotices(groups, displayName, layout.documentColumn),
    ],
  };
}

/**
 * The layout readResults would find from these columns and types, or null where its reading
 * would refuse the file (alike names, a column not found, …): DuckDB's path then says why.
 */
function layoutOrNull(
  csv: SmallCsv,
  options: ReadResultsOptions,
  displayName: string,
): ResultsLayout | null {
  try {
    refuseAlikeNames(csv.names, displayName, " line 1", true);
    const columns = csv.names.map((name, i) => ({ name, type: csv.types[i] as string }));
    return resultsLayout(columns, readResultsLayoutRequest(options), displayName);
  } catch {
    return null;
  }
}

/**
 * Whether a query id repeats within a system (DuckDB's path words that notice), a found query
 * column is past its row limit (a notice too), or the ids are fractions, whose text DuckDB
 * compares after reading them as numbers ("1.5" and "1.50" are one id to it).
 */
function queryIdsRepeatOrUncertain(
  csv: SmallCsv,
  layout: ResultsLayout,
  systems: readonly string[] | null,
): boolean {
  const { column, named, rowLimit } = layout.queryCheck;
  if (column === null) return false;
  const at = csv.names.indexOf(column);
  const ids = csv.columns[at] as readonly string[];
  if (!named && ids.length > rowLimit) return true;
  if (csv.types[at] === "DOUBLE") return true;
  // BIGINT ids written without leading zeros: the text is the number's, but for "-0".
  if (ids.includes("-0")) return true;
  const seen = new Set<string>();
  for (let r = 0; r < ids.length; r++) {
    const key = `${systems ? systems[r] : ""},${ids[r]}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/**
 * The per-document rows of 0/1 metrics, as documentRows.ts and aggregateDocuments' completed
 * form give them: grouped by (system, document), ordered by system then document.
 */
function documentRows(
  docs: readonly string[],
  systems: readonly string[] | null,
  metrics: readonly (readonly string[])[],
): DocumentRows {
  // Group rows by (system, document); ',' cannot occur inside a value.
  const groupOf = new Map<string, number>();
  const keys: { sys: string | null; doc: string }[] = [];
  const rowGroup = new Int32Array(docs.length);
  for (let r = 0; r < docs.length; r++) {
    const sys = systems ? (systems[r] as string) : null;
    const doc = docs[r] as string;
    const key = `${sys ?? ""},${doc}`;
    let g = groupOf.get(key);
    if (g === undefined) {
      g = keys.length;
      groupOf.set(key, g);
      keys.push({ sys, doc });
    }
    rowGroup[r] = g;
  }
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const order = keys
    .map((_, g) => g)
    .sort((a, b) => {
      const ka = keys[a] as { sys: string | null; doc: string };
      const kb = keys[b] as { sys: string | null; doc: string };
      return byCodePoint(ka.sys ?? "", kb.sys ?? "") || byCodePoint(ka.doc, kb.doc);
    });
  const rank = new Int32Array(keys.length);
  order.forEach((g, i) => {
    rank[g] = i;
  });
  const count = keys.length;
  const n = new Float64Array(count);
  const at = (r: number) => rank[rowGroup[r] as number] as number;
  for (let r = 0; r < docs.length; r++) n[at(r)] = (n[at(r)] as number) + 1;
  const metricColumns = metrics.map((values): MetricColumns => {
    const s = new Float64Array(count);
    for (let r = 0; r < values.length; r++)
      if (values[r] === "1") s[at(r)] = (s[at(r)] as number) + 1;
    const min = new Float64Array(count);
    const max = new Float64Array(count);
    for (let d = 0; d < count; d++) {
      min[d] = (s[d] as number) < (n[d] as number) ? 0 : 1;
      max[d] = (s[d] as number) > 0 ? 1 : 0;
    }
    return {
      s,
      ss: s,
      whole: new Float64Array(count).fill(1),
      present: n,
      min,
      max,
      odd: new Float64Array(count),
    };
  });
  return {
    count,
    doc: order.map((g) => (keys[g] as { doc: string }).doc),
    sys: order.map((g) => (keys[g] as { sys: string | null }).sys),
    n,
    label: null,
    metrics: metricColumns,
  };
}
