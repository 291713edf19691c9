import { DecimalSum } from "../core/numeric/decimalSum.js";
import { refuseAlikeNames } from "./distinctColumnNames.js";
import { documentGroups } from "./documentGroups.js";
import type { DocumentRows, MetricColumns } from "./documentRows.js";
import { nearlyBinary, spacedIdNotices, systemsSplitNotices } from "./inputNotices.js";
import { type ReadResultsOptions, readResultsLayoutRequest } from "./readResultsOptions.js";
import { type ResultsLayout, resultsLayout } from "./resultsLayout.js";
import type { MetricAggregates, ResultsTable } from "./resultsTable.js";
import {
  byCodePoint,
  isAsciiId,
  type MetricNumbers,
  metricNumbers,
  readSmallCsv,
  type SmallCsv,
} from "./smallCsv.js";
import { integerSumsExact } from "./summation.js";
import { valuesByDocument } from "./valuesByDocument.js";

/**
 * readResults for a small CSV, without starting DuckDB: a 20-document run spent most of its
 * reading in loading DuckDB's library (25 ms), creating its database (20 ms) and three queries
 * (30 ms), for 124 rows. It returns the very table DuckDB's reading gives, or null — and the
 * caller reads the file with DuckDB — whenever anything is outside what it handles: a file
 * outside smallCsv.ts's subset, a layout DuckDB's reading would refuse or warn about, a metric
 * with an empty or unreadable value or a −0, whole numbers whose squares add up to 2⁵³ or more
 * (summed again in DECIMAL there), a metric 0/1 but for a few rows, an empty, blank or
 * non-ASCII id, a design label, a repeated query id, a query id column of fractions. So every
 * refusal and every notice but "several systems" comes from DuckDB's path;
 * test/ingest/readSmallResults.test.ts holds the two paths equal on generated files.
 *
 * What it computes is what the DuckDB path's SQL does on such a file: rows grouped by system,
 * then document (ids as written, as the reader pins them to VARCHAR), ordered by code points
 * (DuckDB's byte order, the same for ASCII); n, Σx, Σx², the extremes, whole-ness and the count
 * off 0/1 per document (summation.ts's integer or DECIMAL sums); and a non-binary metric's
 * per-query values for the chunk bootstrap.
 */
export async function readSmallResults(
  options: ReadResultsOptions,
  displayName: string,
): Promise<ResultsTable | null> {
  if (options.documentLabel) return null;
  const csv = await readSmallCsv(options.file);
  if (csv === null) return null;
  const layout = layoutOrNull(csv, options, displayName);
  if (layout === null || layout.labelColumn !== null) return null;
  const column = (name: string) => csv.columns[csv.names.indexOf(name)] as readonly string[];
  const metricValues = layout.metrics.map((m) =>
    metricNumbers(column(m), csv.types[csv.names.indexOf(m)]),
  );
  if (metricValues.some((m) => m === null)) return null;
  const docs = column(layout.documentColumn);
  const systems = layout.systemColumn ? column(layout.systemColumn) : null;
  // An empty id is NULL to DuckDB, a blank one refused: a document or system refused, or one
  // repeated query id; ids are ASCII, so that they sort as DuckDB sorts them.
  const ids = [layout.documentColumn, layout.systemColumn, layout.queryCheck.column];
  if (ids.some((name) => name !== null && !column(name).every(isAsciiId))) return null;
  if (queryIdsRepeatOrUncertain(csv, layout, systems)) return null;

  const rows = documentRows(docs, systems, metricValues as MetricNumbers[]);
  if (rows === null || anyNearlyBinary(rows)) return null;
  const context = { file: displayName, metrics: layout.metrics, labelColumn: null };
  const groups = documentGroups(rows, context).map((group) =>
    withValues(
      group,
      { docs, systems, x: (metricValues[layout.metrics.indexOf(group.metric)] as MetricNumbers).x },
      options.valuesUpTo ?? 0,
    ),
  );
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
  // Without metrics named, the metric is the only numeric column: every type must be known.
  // Named, a column's type matters only where it is used (checked there).
  if (!options.metrics?.length && csv.types.includes(null)) return null;
  try {
    refuseAlikeNames(csv.names, displayName, " line 1", true);
    const columns = csv.names.map((name, i) => ({ name, type: csv.types[i] ?? "unknown" }));
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
  if (csv.types[at] !== "VARCHAR" && csv.types[at] !== "BIGINT") return true;
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
 * The per-document rows, as documentRows.ts gives them (after aggregateDocuments' passes):
 * grouped by (system, document), ordered by system then document; per metric n, Σx and Σx²
 * (whole numbers added as doubles, exact; fractions through DECIMAL(38, 18) as core's
 * DecimalSum adds them, DuckDB's casts and all), whether every value is whole, the extremes
 * and the count off 0/1. Null when DuckDB's path would sum otherwise: whole numbers whose
 * squares reach 2⁵³, or a DECIMAL overflow (its double fallback).
 */
function documentRows(
  docs: readonly string[],
  systems: readonly string[] | null,
  metrics: readonly MetricNumbers[],
): DocumentRows | null {
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
  const at = (r: number) => rank[rowGroup[r] as number] as number;
  const n = new Float64Array(count);
  for (let r = 0; r < docs.length; r++) n[at(r)] = (n[at(r)] as number) + 1;
  const metricColumns: MetricColumns[] = [];
  for (const metric of metrics) {
    const columns = perDocumentColumns(metric, at, n);
    if (columns === null) return null;
    metricColumns.push(columns);
  }
  return {
    count,
    doc: order.map((g) => (keys[g] as { doc: string }).doc),
    sys: order.map((g) => (keys[g] as { sys: string | null }).sys),
    n,
    label: null,
    metrics: metricColumns,
  };
}

/** One metric's per-document columns (documentRows.ts's MetricColumns); null on overflow. */
function perDocumentColumns(
  metric: MetricNumbers,
  at: (r: number) => number,
  n: Float64Array,
): MetricColumns | null {
  const count = n.length;
  const s = new Float64Array(count);
  const ss = new Float64Array(count);
  const whole = new Float64Array(count).fill(1);
  const min = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
  const odd = new Float64Array(count);
  const decimal =
    metric.mode === "decimal"
      ? Array.from({ length: count }, () => [new DecimalSum(), new DecimalSum()] as const)
      : null;
  metric.x.forEach((x, r) => {
    const d = at(r);
    if (decimal) {
      const [sum, squares] = decimal[d] as readonly [DecimalSum, DecimalSum];
      sum.add(x);
      squares.add(x * x);
    } else {
      s[d] = (s[d] as number) + x;
      ss[d] = (ss[d] as number) + x * x;
    }
    if (x !== Math.floor(x)) whole[d] = 0;
    if (x < (min[d] as number)) min[d] = x;
    if (x > (max[d] as number)) max[d] = x;
    if (x !== 0 && x !== 1) odd[d] = (odd[d] as number) + 1;
  });
  // aggregateDocuments sums whole numbers again in DECIMAL when these are not exact: left to it.
  if (!decimal && !integerSumsExact({ whole, ss })) return null;
  if (decimal) {
    for (let d = 0; d < count; d++) {
      const [sum, squares] = decimal[d] as readonly [DecimalSum, DecimalSum];
      if (!sum.fits || !squares.fits) return null;
      s[d] = sum.value();
      ss[d] = squares.value();
    }
  }
  return { s, ss, whole, present: Float64Array.from(n), min, max, odd };
}

/**
 * A metric 0/1 but for a few rows (inputNotices.ts's nearlyBinary): DuckDB's path names the
 * first such line in a notice, which is left to it.
 */
function anyNearlyBinary(rows: DocumentRows): boolean {
  const total = rows.n.reduce((t, k) => t + k, 0);
  return rows.metrics.some((m) =>
    nearlyBinary(
      m.odd.reduce((t, c) => t + c, 0),
      total,
    ),
  );
}

/**
 * withResultValues (resultValues.ts) on the parsed rows: a non-binary group of at most `limit`
 * results gets its per-query values.
 */
function withValues(
  group: MetricAggregates,
  rows: {
    readonly docs: readonly string[];
    readonly systems: readonly string[] | null;
    readonly x: Float64Array;
  },
  limit: number,
): MetricAggregates {
  const { stats } = group;
  const total = stats.n.reduce((a, b) => a + b, 0);
  if (stats.binary || total > limit) return group;
  const values = valuesByDocument(stats, (add) => {
    rows.docs.forEach((doc, r) => {
      if (!rows.systems || rows.systems[r] === group.system) add(doc, rows.x[r] as number);
    });
  });
  return { ...group, values };
}
