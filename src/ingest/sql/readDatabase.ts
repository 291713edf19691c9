import { createHash } from "node:crypto";
import { compareCodePoints } from "../../core/aggregate/mergeDocumentStats.js";
import { optionRef, RagciError } from "../../core/errors.js";
import { checkSystemsFound, pairsFound } from "../comparedSystems.js";
import type { PairedTable } from "../pairedTable.js";
import { readAggregates } from "../readAggregates.js";
import { readPairedAggregates } from "../readPairedAggregates.js";
import {
  documentColumn,
  findColumn,
  labelColumn,
  queryColumn,
  resolveColumn,
  resolveMetrics,
} from "../resolveColumns.js";
import type { ResultsTable } from "../resultsTable.js";
import { type DatabaseRow, scrubbed } from "./databaseConnection.js";
import {
  type DatabaseUrl,
  type Environment,
  parseDatabaseUrl,
  WAREHOUSES,
  type Warehouse,
} from "./databaseUrl.js";
import { type Dialect, dialect } from "./dialects.js";
import { databaseAccess } from "./openDatabase.js";
import { withPerDocumentFile } from "./perDocumentRows.js";
import {
  droppedQueriesSql,
  type PerDocumentSqlSpec,
  pairedSystems,
  perDocumentSql,
} from "./perDocumentSql.js";
import { failedCheckMessage } from "./rowChecksSql.js";
import { type SqlSource, sourceColumnsSql, sourceFromSql } from "./sourceRowsSql.js";

/** Per-query rows that stay in a database: where, and which columns. */
export interface ReadDatabaseOptions {
  /** postgresql://…, bigquery://…, snowflake://…, clickhouse://…, trino://…, databricks://… */
  readonly url: string;
  /** Where the credentials the URL leaves out are read from (each client's usual variables). */
  readonly env: Environment;
  readonly source: SqlSource;
  readonly doc?: string | null;
  readonly metrics: readonly string[];
  readonly system?: string | null;
  /** Keep only these systems' rows; null keeps every system. */
  readonly systems?: readonly string[] | null;
  /** Without `system`: a column of this name, if there is one, is the system column. */
  readonly systemIfPresent?: string | null;
  /** A per-document design column (stratum or first-stage unit) carried into the table. */
  readonly documentLabel?: string | null;
  /**
   * How messages and reports name the source; default the URL and its table or --sql. A read
   * of ragci's own SELECT over the user's rows (the facets' averages) names the user's source.
   */
  readonly name?: string;
}

/** A table read through a database, with what describes the input in a report. */
export interface DatabaseRead<T> {
  readonly table: T;
  /** How the source is named in messages and reports (URL without its password, and T or --sql). */
  readonly name: string;
  readonly warehouse: Warehouse;
  /** SHA-256 of the statement run (the input's digest: there is no file to hash). */
  readonly sqlSha256: string;
  /** Rows the database returned: one per system × metric × document. */
  readonly rowsReturned: number;
}

/** An open source: its dialect, its name in messages, its columns, and how to run a statement. */
export interface Session {
  readonly d: Dialect;
  readonly name: string;
  readonly target: DatabaseUrl;
  readonly columns: readonly string[];
  readonly run: (sql: string) => Promise<DatabaseRow[]>;
}

/**
 * Connects (the client loaded only now), names the source for messages, reads its column
 * names, runs `work` and always disconnects. A failed ragci check becomes its message; any
 * other error one line naming the source, with every credential replaced by ***.
 */
export async function withDatabase<T>(
  options: ReadDatabaseOptions,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const target = parseDatabaseUrl(options.url);
  const { label } = WAREHOUSES[target.warehouse];
  const d = dialect(WAREHOUSES[target.warehouse].dialect);
  const name =
    options.name ??
    `${target.shown} ${"table" in options.source ? `table ${options.source.table}` : `(${optionRef("sql")})`}`;
  const from = sourceFromSql(d, options.source);
  const access = databaseAccess(target, options.env);
  let connection: Awaited<ReturnType<typeof access.open>>;
  try {
    connection = await access.open();
  } catch (error) {
    // A client that is not installed: what to install.
    if (error instanceof RagciError)
      throw new RagciError(error.code, `${optionRef("url")} ${target.shown}: ${error.message}`, {
        option: "url",
      });
    throw new RagciError(
      "unreadable-input",
      `${target.shown}: cannot connect to ${label} (${scrubbed(error, access.secrets)})`,
    );
  }
  const failed = (error: unknown) => {
    if (error instanceof RagciError) return error;
    const message = scrubbed(error, access.secrets);
    const check = failedCheckMessage(message);
    return check
      ? new RagciError("invalid-value", `${name}: ${check}`)
      : new RagciError("unreadable-input", `${name}: ${label}: ${message}`);
  };
  try {
    const run = (sql: string) =>
      connection.rows(sql).catch((error) => {
        throw failed(error);
      });
    const columns = await connection.columns(sourceColumnsSql(from)).catch((error) => {
      throw failed(error);
    });
    return await work({ d, name, target, columns, run });
  } finally {
    await connection.close().catch(() => {});
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Per-document aggregates computed inside the database: the GROUP BY of perDocumentSql.ts
 * (with ragci's checks) runs there and only its K rows per system × metric come back, then go
 * through readAggregates as an --aggregated table would.
 */
export async function readDatabase(
  options: ReadDatabaseOptions,
): Promise<DatabaseRead<ResultsTable>> {
  return withDatabase(options, async ({ d, name, target, columns, run }) => {
    const doc = documentColumn(options.doc, columns, name);
    const metrics = resolveMetrics(options.metrics, columns, name);
    const system = options.system
      ? resolveColumn(options.system, columns, name, "system")
      : options.systemIfPresent
        ? findColumn([options.systemIfPresent], columns)
        : null;
    const label = labelColumn(options.documentLabel, columns, name);
    const sql = perDocumentSql(d, {
      source: options.source,
      doc,
      metrics,
      system,
      systems: options.systems ?? null,
      query: null,
      label,
    });
    const rows = await run(sql);
    if (rows.length === 0)
      throw new RagciError("empty-input", `${name}: no rows; there is nothing to analyse`);
    const table = await withPerDocumentFile(
      rows,
      (file) =>
        readAggregates({
          file,
          displayName: name,
          format: "jsonl",
          system: "system",
          documentLabel: label,
        }),
      label,
    );
    return {
      table: { ...table, documentColumn: doc, systemColumn: system },
      name,
      warehouse: target.warehouse,
      sqlSha256: sha256(sql),
      rowsReturned: rows.length,
    };
  });
}

/**
 * Which systems there are (as column `system`): one column scanned, those of `only` when given;
 * NULL and blank names are left out here and fail the row checks later.
 */
export function systemsFoundSql(
  d: Dialect,
  source: SqlSource,
  system: string,
  only?: readonly string[] | null,
): string {
  const sys = `CAST(${d.identifier(system)} AS ${d.text})`;
  const kept = only ? ` AND ${sys} IN (${only.map((s) => d.string(s)).join(", ")})` : "";
  return `SELECT DISTINCT ${sys} AS ${d.alias("system")} FROM ${sourceFromSql(d, source)} WHERE NOT (${d.blank(sys)})${kept}`;
}

export interface ReadDatabasePairsOptions extends ReadDatabaseOptions {
  readonly system: string;
  /** The query id column the systems are joined on (found among the usual names if null). */
  readonly query?: string | null;
  /** Keep the queries every system has instead of failing on the others. */
  readonly intersect?: boolean;
  /** Which (a, b) pairs to difference, given the systems found (in code-point order). */
  readonly pairs: (systems: readonly string[]) => readonly (readonly [string, string])[];
}

/**
 * A paired comparison computed inside the database: the systems joined on the query there,
 * ragci's checks (a query once per system, under one document, of every system unless
 * `intersect`) run there, and each system's and each pair's per-document sums come back —
 * compare's --write-aggregates table, read as compare reads it with --aggregated.
 */
export async function readDatabasePairs(
  options: ReadDatabasePairsOptions,
): Promise<DatabaseRead<PairedTable>> {
  return withDatabase(options, async ({ d, name, target, columns, run }) => {
    const doc = documentColumn(options.doc, columns, name);
    const query = queryColumn(options.query, columns, name);
    const metrics = resolveMetrics(options.metrics, columns, name);
    const system = resolveColumn(options.system, columns, name, "system");
    const label = labelColumn(options.documentLabel, columns, name);
    const found = (await run(systemsFoundSql(d, options.source, system, options.systems))).map(
      (r) => String(r.system),
    );
    const systems = [...found].sort(compareCodePoints);
    checkSystemsFound(name, system, systems, options.systems);
    const pairs = pairsFound(systems, options.pairs(systems));
    const spec: PerDocumentSqlSpec = {
      source: options.source,
      doc,
      metrics,
      system,
      systems,
      query,
      pairs,
      intersect: options.intersect ?? false,
      label,
    };
    const sql = perDocumentSql(d, spec);
    const rows = await run(sql);
    if (rows.length === 0)
      throw new RagciError("empty-input", `${name}: no rows; there is nothing to compare`);
    const paired = pairedSystems(pairs);
    const dropped: Record<string, number> = Object.fromEntries(paired.map((s) => [s, 0]));
    if (options.intersect) {
      const counts = (await run(droppedQueriesSql(d, spec)))[0] ?? {};
      paired.forEach((s, si) => {
        dropped[s] = Number(counts[`dropped${si}`] ?? 0);
      });
    }
    const table = await withPerDocumentFile(
      rows,
      (file) =>
        readPairedAggregates({
          file,
          displayName: name,
          format: "jsonl",
          doc: null,
          system: null,
          onlySystems: null,
          metrics,
          documentLabel: label,
          pairs: () => pairs,
        }),
      label,
    );
    return {
      table: { ...table, dropped },
      name,
      warehouse: target.warehouse,
      sqlSha256: sha256(sql),
      rowsReturned: rows.length,
    };
  });
}
