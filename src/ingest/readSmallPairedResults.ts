import { documentStats } from "../core/aggregate/documentStats.js";
import { DecimalSum } from "../core/numeric/decimalSum.js";
import type { DocumentStats } from "../core/types.js";
import { checkSystemsFound, pairsFound } from "./comparedSystems.js";
import { refuseAlikeNames } from "./distinctColumnNames.js";
import { fileSystemName } from "./fileSystemNames.js";
import { requirePerQueryTable } from "./identity.js";
import { inputFormat } from "./inputFormat.js";
import type { PairDifference, PairedTable } from "./pairedTable.js";
import type { ReadPairedOptions } from "./readPairedOptions.js";
import { documentColumn, queryColumn, resolveColumn, resolveMetrics } from "./resolveColumns.js";
import type { DocumentRanges } from "./resultsTable.js";
import { byCodePoint, isAsciiId, metricNumbers, readSmallCsv, type SmallCsv } from "./smallCsv.js";
import { valuesByDocument } from "./valuesByDocument.js";

/** One input row kept: its document, system, query and metric values. */
interface PairedRow {
  readonly doc: string;
  readonly sys: string;
  readonly q: string;
  readonly values: readonly number[];
}

/** A paired query: its document and each system's values (undefined: none from that system). */
interface PairedQuery {
  readonly doc: string;
  readonly values: (readonly number[] | undefined)[];
}

/**
 * readPairedResults for small CSVs, without starting DuckDB (as readSmallResults.ts does for one
 * system): the very table DuckDB's pairing gives, or null — and the caller pairs the files with
 * DuckDB — whenever anything is outside what it handles: a file outside smallCsv.ts's subset, a
 * layout or a pairing DuckDB's reading would refuse (a query repeated or under two documents, a
 * query missing from a system without `intersect`, a system not found), a metric value DuckDB
 * would refuse or sum otherwise (smallCsv.ts's metricNumbers), an empty id, a design label, a
 * `system` column read as numbers with a decimal point, a system name that is not ASCII. So
 * every refusal comes from DuckDB's path; test/ingest/readSmallPairedResults.test.ts holds the
 * two equal on generated files.
 *
 * What it computes is pairedQueries.ts's pairing and pairedSums.ts's sums on such files: the
 * queries every system has (by query id, across files), each system's and each pair's per-query
 * values b − a summed per document (documents in code-point order, DuckDB's byte order for
 * ASCII; DECIMAL(38, 18) sums, as pairedSums.ts adds them), the queries whose difference is not
 * 0, and the differences sorted within each document when asked for.
 */
export async function readSmallPairedResults(
  options: ReadPairedOptions,
): Promise<PairedTable | null> {
  if (options.documentLabel) return null;
  const perFile = options.inputs.length > 1;
  const rows: PairedRow[] = [];
  const rowsPerInput: number[] = [];
  let metricNames: readonly string[] | null = null;
  for (const input of options.inputs) {
    if (inputFormat(input.path, options.format) !== "csv") return null;
    const csv = await readSmallCsv(input.path);
    if (csv === null) return null;
    const read = inputRows(csv, options, input.displayName, perFile);
    if (read === null) return null;
    metricNames ??= read.metrics;
    rows.push(...read.rows);
    rowsPerInput.push(read.rows.length);
  }
  if (rows.length === 0) return null;
  const metrics = metricNames as readonly string[];
  const systems = [...new Set(rows.map((r) => r.sys))].sort(byCodePoint);
  // System names from file names may be any text; DuckDB orders them by bytes, JS by code units.
  if (!systems.every(isAsciiId)) return null;
  const first = options.inputs[0]?.displayName ?? "";
  let pairs: readonly (readonly [string, string])[];
  try {
    checkSystemsFound(first, options.system, systems, options.onlySystems);
    pairs = pairsFound(systems, options.pairs(systems));
  } catch {
    return null;
  }
  const queries = pairedQueries(rows, systems);
  if (queries === null) return null;
  // The queries every system has are kept; the others count against the systems that have them.
  const kept: PairedQuery[] = [];
  const dropped: Record<string, number> = Object.fromEntries(systems.map((s) => [s, 0]));
  for (const p of queries.values()) {
    if (p.values.every((v) => v !== undefined)) {
      kept.push(p);
      continue;
    }
    p.values.forEach((v, si) => {
      const system = systems[si] as string;
      if (v !== undefined) dropped[system] = (dropped[system] as number) + 1;
    });
  }
  if ((kept.length < queries.size && !options.intersect) || kept.length === 0) return null;

  const withValues = kept.length <= (options.valuesUpTo ?? 0);
  const perSystem: PairedTable["perSystem"][number][] = [];
  for (const [si, system] of systems.entries()) {
    for (const [mi, metric] of metrics.entries()) {
      const sums = documentSums(kept, (p) => (p.values[si] as readonly number[])[mi] as number);
      if (sums === null) return null;
      perSystem.push({ system, metric, ...sums });
    }
  }
  const differences: PairDifference[] = [];
  for (const [a, b] of pairs) {
    for (const [mi, metric] of metrics.entries()) {
      const [ai, bi] = [systems.indexOf(a), systems.indexOf(b)];
      const x = (p: PairedQuery) =>
        ((p.values[bi] as readonly number[])[mi] as number) -
        ((p.values[ai] as readonly number[])[mi] as number);
      const sums = documentSums(kept, x);
      if (sums === null) return null;
      differences.push({
        a,
        b,
        metric,
        ...sums,
        queriesDiffering: kept.filter((p) => x(p) !== 0).length,
        ...(withValues
          ? {
              values: valuesByDocument(sums.stats, (add) => {
                for (const p of kept) add(p.doc, x(p));
              }),
            }
          : {}),
      });
    }
  }
  return {
    systems,
    metrics,
    queries: kept.length,
    rowsPerInput,
    dropped,
    perSystem,
    differences,
    summation: "exact",
  };
}

/**
 * One file's rows (those of the systems kept) with its metric names, or null where DuckDB's
 * reading would refuse the file or read a value otherwise than as written here.
 */
function inputRows(
  csv: SmallCsv,
  options: ReadPairedOptions,
  file: string,
  perFile: boolean,
): { readonly rows: PairedRow[]; readonly metrics: readonly string[] } | null {
  const { names } = csv;
  let doc: string;
  let query: string;
  let metrics: readonly string[];
  let systemColumn: string | null;
  try {
    refuseAlikeNames(names, file, " line 1", true);
    requirePerQueryTable(names, options.metrics, file, options.aggregatedOption);
    doc = documentColumn(options.doc, names, file);
    query = queryColumn(options.query, names, file);
    metrics = resolveMetrics(options.metrics, names, file);
    systemColumn = perFile ? null : resolveColumn(options.system as string, names, file, "system");
  } catch {
    return null;
  }
  // One file per system refuses a `system` column naming several; left to DuckDB's path.
  if (perFile && names.some((n) => n.toLowerCase() === "system")) return null;
  const column = (name: string) => csv.columns[names.indexOf(name)] as readonly string[];
  const typeOf = (name: string) => csv.types[names.indexOf(name)];
  const docs = column(doc);
  const ids = column(query);
  if (!docs.every(isAsciiId) || !ids.every(isAsciiId)) return null;
  // The system column is read in its sniffed type, then as text: integers as written.
  let systems: readonly string[] | null = null;
  if (systemColumn !== null) {
    systems = column(systemColumn);
    const type = typeOf(systemColumn);
    if (type !== "VARCHAR" && type !== "BIGINT") return null;
    if (!systems.every(isAsciiId) || systems.includes("-0")) return null;
  }
  const values = metrics.map((m) => metricNumbers(column(m), typeOf(m))?.x ?? null);
  if (values.some((v) => v === null)) return null;
  const fileSystem = perFile ? fileSystemName(file) : "";
  const only = options.onlySystems ? new Set(options.onlySystems) : null;
  const rows: PairedRow[] = [];
  for (let r = 0; r < docs.length; r++) {
    const sys = systems ? (systems[r] as string) : fileSystem;
    if (only && !only.has(sys)) continue;
    rows.push({
      doc: docs[r] as string,
      sys,
      q: ids[r] as string,
      values: values.map((v) => (v as Float64Array)[r] as number),
    });
  }
  return { rows, metrics };
}

/**
 * The rows matched on the query id (pairedQueriesSql): per query its document and each
 * system's values; null when a query repeats for a system or lies under two documents
 * (DuckDB's path refuses both).
 */
function pairedQueries(
  rows: readonly PairedRow[],
  systems: readonly string[],
): Map<string, PairedQuery> | null {
  const queries = new Map<string, PairedQuery>();
  for (const row of rows) {
    const si = systems.indexOf(row.sys);
    let p = queries.get(row.q);
    if (p === undefined) {
      p = { doc: row.doc, values: systems.map(() => undefined) };
      queries.set(row.q, p);
    } else if (p.doc !== row.doc) return null;
    if (p.values[si] !== undefined) return null;
    p.values[si] = row.values;
  }
  return queries;
}

/**
 * Per document (in code-point order) of the kept queries: n, Σx and Σx² (DECIMAL(38, 18) sums,
 * as core's DecimalSum adds them), the extremes and whether every x is 0 or 1, as pairedSums.ts's
 * documentSums returns them; null when a sum would overflow DECIMAL (DuckDB's double fallback).
 */
function documentSums(
  kept: readonly PairedQuery[],
  x: (p: PairedQuery) => number,
): { readonly stats: DocumentStats; readonly ranges: DocumentRanges } | null {
  const byDoc = new Map<string, number[]>();
  for (const p of kept) {
    const xs = byDoc.get(p.doc);
    if (xs) xs.push(x(p));
    else byDoc.set(p.doc, [x(p)]);
  }
  const ids = [...byDoc.keys()].sort(byCodePoint);
  const columns = ids.map((id) => {
    const xs = byDoc.get(id) as number[];
    const s = new DecimalSum();
    const ss = new DecimalSum();
    for (const v of xs) {
      s.add(v);
      ss.add(v * v);
    }
    return s.fits && ss.fits
      ? { n: xs.length, s: s.value(), ss: ss.value(), lo: Math.min(...xs), hi: Math.max(...xs), xs }
      : null;
  });
  if (!columns.every((c) => c !== null)) return null;
  const ranges = {
    min: Float64Array.from(columns, (c) => c.lo),
    max: Float64Array.from(columns, (c) => c.hi),
  };
  const stats = documentStats({
    ids,
    n: columns.map((c) => c.n),
    s: columns.map((c) => c.s),
    ss: columns.map((c) => c.ss),
    binary: columns.every((c) => c.xs.every((v) => v === 0 || v === 1)),
    min: columns.reduce((m, c) => Math.min(m, c.lo), Number.POSITIVE_INFINITY),
    max: columns.reduce((m, c) => Math.max(m, c.hi), Number.NEGATIVE_INFINITY),
    idsDistinct: true,
  });
  return { stats, ranges };
}
