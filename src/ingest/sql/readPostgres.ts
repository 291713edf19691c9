import { createHash } from "node:crypto";
import { RagciError } from "../../core/errors.js";
import { readAggregates } from "../readAggregates.js";
import { documentColumn, resolveColumn } from "../resolveColumns.js";
import type { ResultsTable } from "../resultsTable.js";
import { dialect } from "./dialects.js";
import { withPerDocumentFile } from "./perDocumentRows.js";
import { perDocumentSql } from "./perDocumentSql.js";
import { failedCheckMessage } from "./rowChecksSql.js";
import { type SqlSource, sourceFromSql } from "./sourceRowsSql.js";

/** A database URL as it may be shown: the password, if any, replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

export interface ReadPostgresOptions {
  readonly url: string;
  readonly source: SqlSource;
  readonly doc?: string | null;
  readonly metrics: readonly string[];
  readonly system?: string | null;
  readonly systems?: readonly string[] | null;
}

export interface PostgresRead {
  readonly table: ResultsTable;
  /** How the source is named in messages and reports (URL without its password, and T or "SQL"). */
  readonly name: string;
  /** SHA-256 of the statement run (the input's digest: there is no file to hash). */
  readonly sqlSha256: string;
  /** Rows PostgreSQL returned: one per system × metric × document. */
  readonly rowsReturned: number;
}

/** A pg error as one line, with the password (if it appears) removed. */
function pgMessage(error: unknown, password: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = (text.split("\n")[0] ?? text).trim();
  return password ? line.replaceAll(password, "***") : line;
}

/**
 * Per-document aggregates computed inside PostgreSQL: the GROUP BY of perDocumentSql.ts (with
 * ragci's checks) runs there and only its rows come back, then go through readAggregates as
 * an --aggregated table would. Credentials come from the URL or pg's usual environment
 * variables (PGUSER, PGPASSWORD, …) and are never shown.
 */
export async function readPostgres(options: ReadPostgresOptions): Promise<PostgresRead> {
  const shown = redactUrl(options.url);
  const name = `${shown} ${"table" in options.source ? `table ${options.source.table}` : "(--sql)"}`;
  const password = (() => {
    try {
      return decodeURIComponent(new URL(options.url).password);
    } catch {
      return "";
    }
  })();
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: options.url });
  try {
    await client.connect();
  } catch (error) {
    throw new RagciError(
      "unreadable-input",
      `${shown}: cannot connect to PostgreSQL (${pgMessage(error, password)})`,
    );
  }
  try {
    const run = async (sql: string) => {
      try {
        return await client.query(sql);
      } catch (error) {
        const message = pgMessage(error, password);
        const failed = failedCheckMessage(message);
        if (failed) throw new RagciError("invalid-value", `${name}: ${failed}`);
        throw new RagciError("unreadable-input", `${name}: PostgreSQL: ${message}`);
      }
    };
    // Any value > 0 makes float8 text the shortest exact form (PostgreSQL ≥ 12), which the
    // exact sums and the transfer of the results rely on.
    await run("SET extra_float_digits = 3");
    const d = dialect("postgres");
    const columns = (
      await run(`SELECT * FROM ${sourceFromSql(d, options.source)} LIMIT 0`)
    ).fields.map((f) => f.name);
    const doc = documentColumn(options.doc, columns, name);
    const metrics = options.metrics.map((m) => resolveColumn(m, columns, name, "metric"));
    const system = options.system ? resolveColumn(options.system, columns, name, "system") : null;
    const sql = perDocumentSql(d, {
      source: options.source,
      doc,
      metrics,
      system,
      systems: options.systems ?? null,
      query: null,
    });
    const result = await run(sql);
    if (result.rows.length === 0)
      throw new RagciError("empty-input", `${name}: no rows; there is nothing to analyse`);
    const table = await withPerDocumentFile(result.rows, (file) =>
      readAggregates({ file, displayName: name, format: "jsonl", system: "system" }),
    );
    return {
      table: { ...table, documentColumn: doc, systemColumn: system },
      name,
      sqlSha256: createHash("sha256").update(sql).digest("hex"),
      rowsReturned: result.rows.length,
    };
  } finally {
    await client.end().catch(() => {});
  }
}
