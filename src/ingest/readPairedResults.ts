import { optionRef, RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { checkInputFile } from "./checkInput.js";
import { checkPairing, checkRows, type InputRows } from "./checkPairedRows.js";
import { checkSystemsFound, pairsFound } from "./comparedSystems.js";
import { describeColumns } from "./describeColumns.js";
import { queryRows, unreadable, withDuckDb } from "./duckdb.js";
import { fileSystemName, fileSystemNames } from "./fileSystemNames.js";
import { requirePerQueryTable } from "./identity.js";
import {
  type InputFormat,
  inputFormat,
  sqlIdentifier,
  sqlString,
  tableFunction,
} from "./inputFormat.js";
import { explainJsonLines } from "./jsonLinesProblem.js";
import { normalizedRowsSql, textOf } from "./normalizedRows.js";
import { keepCommonQueries, pairedSums } from "./pairedSums.js";
import type { PairedTable } from "./pairedTable.js";
import type { PairedInput, ReadPairedOptions } from "./readPairedOptions.js";
import { readSmallPairedResults } from "./readSmallPairedResults.js";
import {
  documentColumn,
  labelColumn,
  queryColumn,
  resolveColumn,
  resolveMetrics,
} from "./resolveColumns.js";
import { dialect } from "./sql/dialects.js";
import { pairedQueriesSql } from "./sql/pairedQueries.js";
import { isDecimalOverflow, type SumMode, type Summation } from "./summation.js";
import { rowChecks } from "./validateRows.js";

const DUCKDB = dialect("duckdb");

export type { PairDifference, PairedTable } from "./pairedTable.js";
export type { PairedInput, ReadPairedOptions } from "./readPairedOptions.js";

/**
 * The difference of a table read for one pair and one metric (a census or a pilot of a pair),
 * with each document's label when one was asked for.
 */
export function onlyDifference(table: PairedTable): {
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly labels: string[] | null;
} {
  const difference = table.differences[0];
  if (!difference) throw new Error("internal: no paired difference");
  const { labelOf } = table;
  const labels = labelOf ? difference.stats.ids.map((id) => labelOf.get(id) as string) : null;
  return { stats: difference.stats, metric: difference.metric, labels };
}

/**
 * Reads per-query results of several systems and pairs them on the query id with DuckDB, with
 * the pairing a database's statement uses (sql/pairedQueries.ts): validates that every query
 * appears once per system and under one document, keeps the common queries when asked, and
 * aggregates per document each system's results and, for each requested pair, the differences
 * b − a (exact DECIMAL sums, so thread-independent; doubles in query order on overflow).
 * Small CSVs of 0/1 results give the same table without starting DuckDB
 * (readSmallPairedResults.ts).
 *
 * @example // tfidf − bm25 on 1,380 queries: 83 differ, and their hit5 differences add up to −57
 *   // (= 952 − 1009, the readResults example's totals)
 *   await readPairedResults({ inputs: [{ path: "examples/covidqa-retrieval.csv", displayName: "covidqa-retrieval.csv" }], doc: "doc_id", query: "query_id", system: "system", metrics: ["hit5"], pairs: (systems) => [[systems[0], systems[1]]] })
 *     .then((t) => [t.systems, t.queries, t.differences[0].queriesDiffering, t.differences[0].stats.s.reduce((a, b) => a + b)])
 *   // => [["bm25", "tfidf"], 1380, 83, -57]
 */
export async function readPairedResults(options: ReadPairedOptions): Promise<PairedTable> {
  const first = options.inputs[0];
  if (!first) throw new RagciError("invalid-option", "compare needs at least one input file");
  const perFile = options.inputs.length > 1;
  if (perFile) {
    fileSystemNames(
      options.inputs.map((i) => i.displayName),
      options.system,
      options.onlySystems,
    );
  }
  if (!perFile && !options.system) {
    throw new RagciError(
      "invalid-option",
      `${first.displayName}: name the system column with ${optionRef("system")}, or give one file per system`,
      { file: first.displayName, option: "system" },
    );
  }
  return (await readSmallPairedResults(options)) ?? readPairedResultsWithDuckDb(options);
}

/** readPairedResults through DuckDB: every input it takes, every refusal. */
export async function readPairedResultsWithDuckDb(
  options: ReadPairedOptions,
): Promise<PairedTable> {
  const first = options.inputs[0] as PairedInput;
  const perFile = options.inputs.length > 1;
  return withDuckDb(async (connection) => {
    const selects: string[] = [];
    const inputs: InputRows[] = [];
    let labelName: string | null = null;
    // The metrics are named as the first input's columns (hit@5 asked, hit5 read: hit5), as
    // every reader names them, so a table written from them reads back with the same names.
    let metricNames: readonly string[] | null = null;
    for (const input of options.inputs) {
      const file = input.displayName;
      await checkInputFile(input.path, file);
      const format = inputFormat(input.path, options.format);
      const names = (await describeColumns(connection, input.path, format, file)).map(
        (c) => c.name,
      );
      // A per-document table has no query ids: say that, rather than that its query id is missing.
      requirePerQueryTable(names, options.metrics, file, options.aggregatedOption);
      const doc = documentColumn(options.doc, names, file);
      const query = queryColumn(options.query, names, file);
      const metrics = resolveMetrics(options.metrics, names, file);
      metricNames ??= metrics;
      const systemColumn = perFile
        ? null
        : resolveColumn(options.system as string, names, file, "system");
      const label = labelColumn(options.documentLabel, names, file);
      const pinned: Record<string, string> = { [doc]: "VARCHAR", [query]: "VARCHAR" };
      if (label) pinned[label] = "VARCHAR";
      for (const m of metrics) pinned[m] = "DOUBLE";
      const source = tableFunction(
        input.path,
        format,
        format === "csv" || format === "tsv" ? pinned : {},
      );
      const rows = normalizedRowsSql({
        source,
        documentColumn: doc,
        systemSql: systemColumn ? textOf(systemColumn) : sqlString(fileSystemName(file)),
        queryColumn: query,
        metrics,
        labelColumn: label,
      });
      // Rows of systems left out are neither checked nor kept.
      const kept = options.onlySystems
        ? `(SELECT * FROM (${rows}) WHERE sys IN (${options.onlySystems.map(sqlString).join(", ")}))`
        : `(${rows})`;
      if (perFile) await requireOneSystemPerFile(connection, source, names, file);
      selects.push(`SELECT *, ${selects.length} AS file FROM ${kept}`);
      inputs.push({
        connection,
        source: kept,
        file,
        format: format as InputFormat,
        checks: [
          rowChecks.document(doc),
          rowChecks.query(query),
          ...(systemColumn ? [rowChecks.system(systemColumn)] : []),
          ...metrics.map((m, i) => rowChecks.metric(m, i)),
          ...(label ? [rowChecks.label(label)] : []),
        ],
      });
      labelName = label;
    }
    await connection
      .run(`CREATE TEMP TABLE src AS ${selects.join(" UNION ALL ")}`)
      .catch(async (error) => {
        // A JSON line DuckDB's first look did not reach: named by its file and line.
        for (const input of options.inputs) {
          const json = await explainJsonLines(
            input.path,
            input.displayName,
            inputFormat(input.path, options.format),
          );
          if (json) throw json;
        }
        throw unreadable(first.displayName, error);
      });
    await checkRows(connection, inputs);
    const systems = (await queryRows(connection, "SELECT DISTINCT sys FROM src ORDER BY sys")).map(
      (r) => String(r.sys),
    );
    const metrics = metricNames as readonly string[];
    // The systems' rows matched on the query, as a database matches them (pairedQueries.ts).
    await connection.run(
      `CREATE TEMP TABLE pairs AS ${pairedQueriesSql(DUCKDB, {
        from: "src",
        systems,
        metrics: metrics.length,
        label: labelName !== null,
      })}`,
    );
    await checkPairing(connection, first.displayName, inputs, labelName, systems);

    const counted = await queryRows(
      connection,
      "SELECT file, count(*) AS k FROM src GROUP BY file",
    );
    const rowsPerInput = options.inputs.map((_, i) =>
      Number(counted.find((r) => Number(r.file) === i)?.k ?? 0),
    );
    checkSystemsFound(first.displayName, options.system, systems, options.onlySystems);
    const { dropped, queries, kept } = await keepCommonQueries(
      connection,
      systems,
      options.intersect ?? null,
      first.displayName,
    );

    const pairs = pairsFound(systems, options.pairs(systems));
    const sumsIn = (mode: SumMode) =>
      pairedSums(connection, {
        systems,
        metrics,
        pairs,
        mode,
        kept,
        withValues: queries <= (options.valuesUpTo ?? 0),
      });
    let summation: Summation = "exact";
    let sums: Awaited<ReturnType<typeof sumsIn>>;
    try {
      sums = await sumsIn("decimal");
    } catch (error) {
      if (!isDecimalOverflow(error)) throw error;
      sums = await sumsIn("double");
      summation = "double-query-order";
    }
    const labelOf = labelName
      ? new Map(
          (
            await queryRows(
              connection,
              `SELECT query_doc AS doc, min(query_lab) AS lab FROM pairs WHERE ${kept} GROUP BY query_doc`,
            )
          ).map((r) => [String(r.doc), String(r.lab)] as const),
        )
      : undefined;
    return {
      systems,
      metrics,
      queries,
      rowsPerInput,
      dropped,
      perSystem: sums.perSystem,
      differences: sums.differences,
      ...(labelOf ? { labelOf } : {}),
      summation,
    };
  }, options.threads);
}

/**
 * One file per system: a file whose `system` column names several systems would pool them as
 * one (named after the file). Refused, with the way to compare them from that file.
 */
async function requireOneSystemPerFile(
  connection: Parameters<typeof queryRows>[0],
  source: string,
  names: readonly string[],
  file: string,
): Promise<void> {
  const column = names.find((n) => n.toLowerCase() === "system");
  if (column === undefined) return;
  const text = `CAST(${sqlIdentifier(column)} AS VARCHAR)`;
  const found = await queryRows(
    connection,
    `SELECT DISTINCT ${text} AS sys FROM ${source} ORDER BY sys LIMIT 6`,
  ).catch((error) => {
    throw unreadable(file, error);
  });
  if (found.length < 2) return;
  const systems = found.slice(0, 5).map((r) => String(r.sys));
  throw new RagciError(
    "invalid-value",
    `${file}: column ${column} names several systems (${systems.join(", ")}${found.length > 5 ? ", …" : ""}), which one file per system would pool: compare them from this file with \`system\`, or give one file per system`,
    { file, option: "system" },
  );
}
