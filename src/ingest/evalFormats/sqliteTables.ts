// A SQLite database file's tables as plain rows (evalite's store is one), read with sql.js:
// SQLite compiled to WebAssembly, so it installs without a native build and reads the file's
// bytes in memory, writing nothing beside it. DuckDB's sqlite extension would need a download
// at run time, and node:sqlite is not in Node 20. Loaded only when a SQLite file is given.
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { RagciError } from "../../core/errors.js";
import type { JsonObject } from "./evalRows.js";

/** The first 16 bytes of every SQLite 3 database file (sqlite.org/fileformat.html, 1.3). */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

export function isSqliteFile(bytes: Buffer): boolean {
  return bytes.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER);
}

/** The part of sql.js's API used here (sql.js ships no types). */
interface SqlJsDatabase {
  exec(sql: string): { columns: string[]; values: unknown[][] }[];
  close(): void;
}
type SqlJs = { Database: new (bytes: Uint8Array) => SqlJsDatabase };

let sqlJs: Promise<SqlJs> | null = null;

function loadSqlJs(): Promise<SqlJs> {
  // sql.js is CommonJS; its initialiser compiles the WebAssembly once per process.
  const init = createRequire(import.meta.url)("sql.js") as () => Promise<SqlJs>;
  sqlJs ??= init();
  return sqlJs;
}

/** The size of the -wal file beside the database: commits not yet copied into the file. */
async function walBytes(path: string): Promise<number> {
  return stat(`${path}-wal`).then(
    (s) => s.size,
    () => 0,
  );
}

/** Rows of one statement's result as objects by column name. */
function rowsOf(db: SqlJsDatabase, sql: string): JsonObject[] {
  const [result] = db.exec(sql);
  if (!result) return [];
  return result.values.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
}

/**
 * Every table's rows, by table name. Bytes 18–19 (1 = rollback journal, 2 = WAL) are set to 1
 * in a copy, as a file read from memory cannot use a WAL. A -wal file with content beside it
 * holds commits the file does not (a writer still running, or one that did not close): refused,
 * since reading the file alone would give an earlier state of the store.
 *
 * @throws RagciError for a -wal file with content, or a file SQLite cannot open
 */
export async function sqliteTables(
  path: string,
  file: string,
  bytes: Buffer,
): Promise<ReadonlyMap<string, readonly JsonObject[]>> {
  const pending = await walBytes(path);
  if (pending > 0)
    throw new RagciError(
      "unreadable-input",
      `${file}: ${pending} bytes of commits are still in ${file}-wal (the writer is running or did not close); let it finish, then read the file`,
      { file },
    );
  const { Database } = await loadSqlJs();
  const copy = Uint8Array.from(bytes);
  copy[18] = 1;
  copy[19] = 1;
  let db: SqlJsDatabase;
  let names: string[];
  try {
    db = new Database(copy);
    names = rowsOf(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map(
      (r) => String(r.name),
    );
  } catch (error) {
    throw new RagciError(
      "unreadable-input",
      `${file}: SQLite could not open it (${(error as Error).message}); check that it is a whole database file`,
      { file },
    );
  }
  try {
    return new Map(
      names.map((name) => [name, rowsOf(db, `SELECT * FROM "${name.replaceAll('"', '""')}"`)]),
    );
  } finally {
    db.close();
  }
}
