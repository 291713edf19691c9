import { basename } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { documentStats } from "../core/aggregate/documentStats.js";
import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { checkInputFile } from "./checkInput.js";
import { queryRows, unreadable, withDuckDb } from "./duckdb.js";
import { inputFormat, sqlIdentifier, sqlString, tableFunction } from "./inputFormat.js";
import { DOCUMENT_COLUMN_CANDIDATES, describeColumns } from "./readResults.js";
import { findColumn, QUERY_COLUMN_CANDIDATES, resolveColumn } from "./resolveColumns.js";

export interface PairedInput {
  /** Path DuckDB reads. */
  readonly path: string;
  /** Name in messages. */
  readonly displayName: string;
}

export interface ReadPairedOptions {
  /** One file with a system column, or one file per system. */
  readonly inputs: readonly PairedInput[];
  readonly format?: string | null;
  readonly doc?: string | null;
  readonly query?: string | null;
  /** System column (one file); with one file per system the systems are the file names. */
  readonly system?: string | null;
  readonly metrics: readonly string[];
  /** Keep the queries every system has, instead of failing on the others. */
  readonly intersect?: boolean;
  /** Keep only these systems' rows (--system COLUMN=A,B); null keeps every system. */
  readonly onlySystems?: readonly string[] | null;
  /** Which (a, b) pairs to difference, given the systems found (sorted by name). */
  readonly pairs: (systems: readonly string[]) => readonly (readonly [string, string])[];
  readonly threads?: number;
  /** Also return the per-query differences when there are at most this many queries. */
  readonly valuesUpTo?: number;
  /** A per-document column (a design's stratum or psu) to return, one value per document. */
  readonly documentLabel?: string | null;
}

export interface PairDifference {
  readonly a: string;
  readonly b: string;
  readonly metric: string;
  /** Per-document sums of the per-query differences x = b − a. */
  readonly stats: DocumentStats;
  /** Queries with x ≠ 0; null when per-document sums cannot tell (scores, aggregated input). */
  readonly queriesDiffering: number | null;
  /** The per-query differences grouped by document, sorted (for the chunk bootstrap). */
  readonly values?: ResultValues;
}

export interface PairedTable {
  readonly systems: readonly string[];
  readonly metrics: readonly string[];
  /** Queries kept (present for every system). */
  readonly queries: number;
  /** Rows each input file holds (before --intersect drops any). */
  readonly rowsPerInput: readonly number[];
  /** Queries dropped per system by --intersect. */
  readonly dropped: Readonly<Record<string, number>>;
  /** Each system's aggregates on the kept queries, per metric. */
  readonly perSystem: readonly {
    readonly system: string;
    readonly metric: string;
    readonly stats: DocumentStats;
  }[];
  readonly differences: readonly PairDifference[];
  /** The documentLabel of each document (by id), when one was asked for. */
  readonly labelOf?: ReadonlyMap<string, string>;
}

const id = sqlIdentifier;
const exact = (x: string) => `sum(CAST(${x} AS DECIMAL(38, 18)))::DOUBLE`;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Reads per-query results of several systems and pairs them on the query id with DuckDB:
 * validates that every query appears once per system and under one document, keeps the
 * common queries when asked, and aggregates per document each system's results and, for each
 * requested pair, the differences b − a (exact DECIMAL sums, so thread-independent).
 */
export async function readPairedResults(options: ReadPairedOptions): Promise<PairedTable> {
  const first = options.inputs[0];
  if (!first) throw new RagciError("invalid-option", "compare needs at least one input file");
  const perFile = options.inputs.length > 1;
  if (!perFile && !options.system) {
    throw new RagciError(
      "invalid-option",
      `${first.displayName}: name the system column with --system, or give one file per system`,
    );
  }
  return withDuckDb(async (connection) => {
    const selects: string[] = [];
    let documentColumn = "";
    let queryColumn = "";
    let metricColumns: string[] = [];
    let labelColumn: string | null = null;
    for (const input of options.inputs) {
      await checkInputFile(input.path, input.displayName);
      const format = inputFormat(input.path, options.format);
      const plain = tableFunction(input.path, format);
      const names = (await describeColumns(connection, input.path, format, input.displayName)).map(
        (c) => c.name,
      );
      const doc = options.doc
        ? resolveColumn(options.doc, names, input.displayName, "document")
        : findColumn(DOCUMENT_COLUMN_CANDIDATES, names);
      if (doc === null) {
        throw new RagciError(
          "missing-column",
          `${input.displayName}: no document column; name it with --doc (columns: ${names.join(", ")})`,
          { file: input.displayName },
        );
      }
      const query = options.query
        ? resolveColumn(options.query, names, input.displayName, "query")
        : findColumn(QUERY_COLUMN_CANDIDATES, names);
      if (query === null) {
        throw new RagciError(
          "missing-column",
          `${input.displayName}: no query id column to pair the systems on; name it with --query (columns: ${names.join(", ")})`,
          { file: input.displayName },
        );
      }
      const metrics = options.metrics.map((m) =>
        resolveColumn(m, names, input.displayName, "metric"),
      );
      const system = perFile
        ? sqlString(basename(input.displayName).replace(/\.[^.]+(\.gz|\.zst)?$/, ""))
        : `CAST(${id(resolveColumn(options.system as string, names, input.displayName, "system"))} AS VARCHAR)`;
      const label = options.documentLabel
        ? resolveColumn(options.documentLabel, names, input.displayName, "design")
        : null;
      const pinned: Record<string, string> = { [doc]: "VARCHAR", [query]: "VARCHAR" };
      if (label) pinned[label] = "VARCHAR";
      for (const m of metrics) pinned[m] = "DOUBLE";
      const source =
        format === "csv" || format === "tsv" ? tableFunction(input.path, format, pinned) : plain;
      selects.push(
        `SELECT CAST(${id(doc)} AS VARCHAR) AS doc, CAST(${id(query)} AS VARCHAR) AS q, ${system} AS sys, ${metrics
          .map((m, i) => `TRY_CAST(${id(m)} AS DOUBLE) AS v${i}`)
          .join(
            ", ",
          )}, ${label ? `CAST(${id(label)} AS VARCHAR)` : "NULL::VARCHAR"} AS lab, ${selects.length} AS file FROM ${source}`,
      );
      labelColumn = label;
      documentColumn = doc;
      queryColumn = query;
      metricColumns = metrics;
    }
    await connection
      .run(
        `CREATE TEMP TABLE src AS SELECT * FROM (${selects.join(" UNION ALL ")})${
          options.onlySystems
            ? ` WHERE sys IN (${options.onlySystems.map(sqlString).join(", ")})`
            : ""
        }`,
      )
      .catch((error) => {
        throw unreadable(first.displayName, error);
      });
    await validate(connection, first.displayName, documentColumn, queryColumn, metricColumns);
    if (labelColumn)
      await validateLabels(connection, first.displayName, documentColumn, labelColumn);

    const counted = await queryRows(
      connection,
      "SELECT file, count(*) AS k FROM src GROUP BY file",
    );
    const rowsPerInput = options.inputs.map((_, i) =>
      Number(counted.find((r) => Number(r.file) === i)?.k ?? 0),
    );
    const systems = (await queryRows(connection, "SELECT DISTINCT sys FROM src ORDER BY sys")).map(
      (r) => String(r.sys),
    );
    const absent = options.onlySystems?.filter((v) => !systems.includes(v)) ?? [];
    if (absent.length > 0) {
      throw new RagciError(
        "invalid-option",
        `${first.displayName}: no system "${absent.join('", "')}" in column ${options.system}${systems.length > 0 ? ` (kept ${systems.join(", ")})` : ""}; check the names after "="`,
      );
    }
    if (systems.length < 2) {
      throw new RagciError(
        "invalid-value",
        `${first.displayName}: found ${plural(systems.length, "system")} (${systems.join(", ")}); a comparison needs at least two`,
      );
    }
    const dropped = await keepCommonQueries(
      connection,
      systems,
      options.intersect ?? false,
      first.displayName,
    );
    const wideColumns = systems.flatMap((s, si) =>
      metricColumns.map(
        (_, mi) => `max(v${mi}) FILTER (WHERE sys = ${sqlString(s)}) AS s${si}_${mi}`,
      ),
    );
    await connection.run(
      `CREATE TEMP TABLE wide AS SELECT doc, q, min(lab) AS lab, ${wideColumns.join(", ")} FROM common GROUP BY doc, q`,
    );
    const queries = Number(
      (await queryRows(connection, "SELECT count(*) AS k FROM wide"))[0]?.k ?? 0,
    );

    const perSystem: PairedTable["perSystem"][number][] = [];
    for (const [si, system] of systems.entries()) {
      for (const [mi, metric] of options.metrics.entries()) {
        perSystem.push({ system, metric, stats: await documentSums(connection, `s${si}_${mi}`) });
      }
    }
    const differences: PairDifference[] = [];
    for (const [a, b] of options.pairs(systems)) {
      const ai = systems.indexOf(a);
      const bi = systems.indexOf(b);
      if (ai < 0 || bi < 0) {
        const missing = ai < 0 ? a : b;
        throw new RagciError(
          "invalid-option",
          `no system "${missing}" in the data (systems: ${systems.join(", ")})`,
        );
      }
      for (const [mi, metric] of options.metrics.entries()) {
        const x = `(s${bi}_${mi} - s${ai}_${mi})`;
        const stats = await documentSums(connection, x);
        const differing = await queryRows(
          connection,
          `SELECT count(*) FILTER (WHERE ${x} <> 0) AS k FROM wide`,
        );
        const wanted = queries <= (options.valuesUpTo ?? 0);
        const values = wanted ? await differenceValues(connection, x, stats) : undefined;
        differences.push({
          a,
          b,
          metric,
          stats,
          queriesDiffering: Number(differing[0]?.k ?? 0),
          ...(values ? { values } : {}),
        });
      }
    }
    const labelOf = labelColumn
      ? new Map(
          (await queryRows(connection, "SELECT doc, min(lab) AS lab FROM wide GROUP BY doc")).map(
            (r) => [String(r.doc), String(r.lab)] as const,
          ),
        )
      : undefined;
    return {
      systems,
      metrics: options.metrics,
      queries,
      rowsPerInput,
      dropped,
      perSystem,
      differences,
      ...(labelOf ? { labelOf } : {}),
    };
  }, options.threads);
}

async function validate(
  connection: DuckDBConnection,
  file: string,
  documentColumn: string,
  queryColumn: string,
  metrics: readonly string[],
): Promise<void> {
  const empty = await queryRows(
    connection,
    "SELECT count(*) FILTER (WHERE doc IS NULL OR trim(doc) = '') AS d, count(*) FILTER (WHERE q IS NULL OR trim(q) = '') AS q, count(*) FILTER (WHERE sys IS NULL OR trim(sys) = '') AS s, count(*) AS k FROM src",
  );
  const e = empty[0] ?? {};
  if (Number(e.k) === 0)
    throw new RagciError("empty-input", `${file}: no rows; there is nothing to compare`, { file });
  if (Number(e.d) > 0)
    throw new RagciError(
      "invalid-value",
      `${file}: ${plural(Number(e.d), "row")} with an empty ${documentColumn}; every result needs a document id`,
      { file, column: documentColumn },
    );
  if (Number(e.q) > 0)
    throw new RagciError(
      "invalid-value",
      `${file}: ${plural(Number(e.q), "row")} with an empty ${queryColumn}; every result needs a query id`,
      { file, column: queryColumn },
    );
  if (Number(e.s) > 0)
    throw new RagciError(
      "invalid-value",
      `${file}: ${plural(Number(e.s), "row")} with an empty system; every result needs a system`,
      { file },
    );
  for (const [i, metric] of metrics.entries()) {
    const bad = await queryRows(
      connection,
      `SELECT q, sys, (SELECT count(*) FROM src WHERE v${i} IS NULL OR NOT isfinite(v${i})) AS k FROM src WHERE v${i} IS NULL OR NOT isfinite(v${i}) ORDER BY sys, q LIMIT 1`,
    );
    if (bad[0]) {
      const k = Number(bad[0].k);
      throw new RagciError(
        "invalid-value",
        `${file}: column ${metric} is empty, not a number, NaN or infinite for query ${bad[0].q} of system ${bad[0].sys}${k > 1 ? ` (and ${k - 1} more)` : ""}; every result needs a finite value`,
        { file, column: metric },
      );
    }
  }
  const duplicated = await queryRows(
    connection,
    "SELECT sys, q, c, (SELECT count(*) FROM (SELECT 1 FROM src GROUP BY sys, q HAVING count(*) > 1)) AS k FROM (SELECT sys, q, count(*) AS c FROM src GROUP BY sys, q HAVING count(*) > 1) ORDER BY sys, q LIMIT 1",
  );
  if (duplicated[0]) {
    const d = duplicated[0];
    const k = Number(d.k);
    throw new RagciError(
      "invalid-value",
      `${file}: query ${d.q} appears ${d.c} times for system ${d.sys}${k > 1 ? ` (${k} duplicated queries in all)` : ""}; each query needs one result per system`,
      { file, column: queryColumn },
    );
  }
  const split = await queryRows(
    connection,
    "SELECT q, min(doc) AS d1, max(doc) AS d2, (SELECT count(*) FROM (SELECT 1 FROM src GROUP BY q HAVING count(DISTINCT doc) > 1)) AS k FROM src GROUP BY q HAVING count(DISTINCT doc) > 1 ORDER BY q LIMIT 1",
  );
  if (split[0]) {
    const s = split[0];
    const k = Number(s.k);
    throw new RagciError(
      "invalid-value",
      `${file}: query ${s.q} is under two documents (${s.d1} and ${s.d2})${k > 1 ? `, as are ${k - 1} more queries` : ""}; a query belongs to one document`,
      { file, column: documentColumn },
    );
  }
}

/** A design's stratum or psu: present on every row, and one value per document. */
async function validateLabels(
  connection: DuckDBConnection,
  file: string,
  documentColumn: string,
  labelColumn: string,
): Promise<void> {
  const empty = await queryRows(
    connection,
    "SELECT doc, q, (SELECT count(*) FROM src WHERE lab IS NULL OR trim(lab) = '') AS k FROM src WHERE lab IS NULL OR trim(lab) = '' ORDER BY doc, q LIMIT 1",
  );
  if (empty[0]) {
    throw new RagciError(
      "invalid-value",
      `${file}: column ${labelColumn} is empty for query ${empty[0].q} of document ${empty[0].doc}${Number(empty[0].k) > 1 ? ` (and ${Number(empty[0].k) - 1} more rows)` : ""}; the design needs it on every row`,
      { file, column: labelColumn },
    );
  }
  const split = await queryRows(
    connection,
    "SELECT doc, min(lab) AS l1, max(lab) AS l2 FROM src GROUP BY doc HAVING count(DISTINCT lab) > 1 ORDER BY doc LIMIT 1",
  );
  if (split[0]) {
    throw new RagciError(
      "invalid-design",
      `${file}: document ${split[0].doc} has two values of ${labelColumn} (${split[0].l1} and ${split[0].l2}); a document belongs to one ${labelColumn} (column ${documentColumn})`,
      { file, column: labelColumn },
    );
  }
}

async function keepCommonQueries(
  connection: DuckDBConnection,
  systems: readonly string[],
  intersect: boolean,
  file: string,
): Promise<Record<string, number>> {
  const count = systems.length;
  await connection.run(
    `CREATE TEMP TABLE shared AS SELECT q FROM src GROUP BY q HAVING count(*) = ${count}`,
  );
  const missing = await queryRows(
    connection,
    "SELECT sys, count(*) AS k, min(q) AS q FROM src WHERE q NOT IN (SELECT q FROM shared) GROUP BY sys ORDER BY sys",
  );
  const dropped: Record<string, number> = Object.fromEntries(systems.map((s) => [s, 0]));
  for (const row of missing) dropped[String(row.sys)] = Number(row.k);
  const total = missing.reduce((t, r) => t + Number(r.k), 0);
  if (total > 0 && !intersect) {
    const first = missing[0] as Record<string, unknown>;
    const others = systems.filter((s) => !missing.some((r) => r.sys === s));
    throw new RagciError(
      "invalid-value",
      `${file}: query ${first.q} has a result for ${first.sys} but not for ${others.join(", ") || "every other system"}; ${missing.map((r) => `${r.sys} has ${plural(Number(r.k), "query")}`).join(", ")} missing from another system. Use --intersect to keep the common queries`,
      { file },
    );
  }
  await connection.run(
    "CREATE TEMP TABLE common AS SELECT * FROM src WHERE q IN (SELECT q FROM shared)",
  );
  const left = await queryRows(connection, "SELECT count(*) AS k FROM shared");
  if (Number(left[0]?.k ?? 0) === 0) {
    throw new RagciError(
      "invalid-value",
      `${file}: no query has a result for every system (${systems.join(", ")}); nothing to compare`,
      { file },
    );
  }
  return dropped;
}

async function documentSums(connection: DuckDBConnection, x: string): Promise<DocumentStats> {
  const rows = await queryRows(
    connection,
    `SELECT doc, count(*) AS n, ${exact(x)} AS s, ${exact(`${x} * ${x}`)} AS ss, min(${x}) AS lo, max(${x}) AS hi, bool_and(${x} = 0 OR ${x} = 1) AS bin FROM wide GROUP BY doc ORDER BY doc`,
  );
  return documentStats({
    ids: rows.map((r) => String(r.doc)),
    n: rows.map((r) => r.n as number),
    s: rows.map((r) => r.s as number),
    ss: rows.map((r) => r.ss as number),
    binary: rows.every((r) => r.bin === true),
    min: rows.reduce((m, r) => Math.min(m, r.lo as number), Number.POSITIVE_INFINITY),
    max: rows.reduce((m, r) => Math.max(m, r.hi as number), Number.NEGATIVE_INFINITY),
    idsDistinct: true,
  });
}

async function differenceValues(
  connection: DuckDBConnection,
  x: string,
  stats: DocumentStats,
): Promise<ResultValues> {
  const rows = await queryRows(connection, `SELECT ${x} AS v FROM wide ORDER BY doc, v`);
  const offsets = new Uint32Array(stats.n.length + 1);
  for (let d = 0; d < stats.n.length; d++)
    offsets[d + 1] = (offsets[d] as number) + (stats.n[d] as number);
  return { offsets, values: Float64Array.from(rows, (r) => r.v as number) };
}
