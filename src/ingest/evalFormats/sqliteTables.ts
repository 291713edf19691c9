// A SQLite database file's tables as plain rows, read with better-sqlite3, an optional peer
// dependency imported only when a SQLite file is given (evalite's store is one). DuckDB's
// sqlite extension would need a download at run time, and node:sqlite is not in Node 20.
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { RagciError } from "../../core/errors.js";
import type { JsonObject } from "./evalRows.js";

/** The first 16 bytes of every SQLite 3 database file (sqlite.org/fileformat.html, 1.3). */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

export function isSqliteFile(bytes: Buffer): boolean {
  return bytes.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER);
}

/** The part of better-sqlite3's API used here. */
interface SqliteDatabase {
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}
type SqliteConstructor = new (
  source: string | Buffer,
  options: { readonly: boolean; fileMustExist?: boolean },
) => SqliteDatabase;

const PACKAGE = "better-sqlite3";

/** @throws RagciError naming the package to install when it is absent */
async function loadSqlite(file: string): Promise<SqliteConstructor> {
  try {
    createRequire(import.meta.url).resolve(PACKAGE);
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND")
      throw new RagciError(
        "unreadable-input",
        `${file}: a SQLite file (evalite's store) is read with the package ${PACKAGE}, which is not installed: npm install ${PACKAGE}@12 (beside ragci)`,
        { file },
      );
  }
  const loaded = await import(PACKAGE);
  return (loaded.default ?? loaded) as SqliteConstructor;
}

/** A -wal file beside the database with content: commits not yet copied into the file. */
async function hasWalContent(path: string): Promise<boolean> {
  return stat(`${path}-wal`).then(
    (s) => s.size > 0,
    () => false,
  );
}

/**
 * Every table's rows, by table name. The file is read from its bytes, so nothing is written
 * beside it; bytes 18–19 (1 = rollback journal, 2 = WAL) are set to 1 because an in-memory
 * copy cannot use a WAL. When a -wal file with content is beside it (a writer still running,
 * or one that did not close), the file itself is opened read-only so those commits are seen.
 */
export async function sqliteTables(
  path: string,
  file: string,
  bytes: Buffer,
): Promise<ReadonlyMap<string, readonly JsonObject[]>> {
  const Database = await loadSqlite(file);
  let db: SqliteDatabase;
  try {
    if (await hasWalContent(path)) db = new Database(path, { readonly: true, fileMustExist: true });
    else {
      const copy = Buffer.from(bytes);
      copy[18] = 1;
      copy[19] = 1;
      db = new Database(copy, { readonly: true });
    }
  } catch (error) {
    throw new RagciError(
      "unreadable-input",
      `${file}: SQLite could not open it (${(error as Error).message}); check that it is a whole database file`,
      { file },
    );
  }
  try {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => String((r as JsonObject).name));
    return new Map(
      names.map((name) => [
        name,
        db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all() as JsonObject[],
      ]),
    );
  } finally {
    db.close();
  }
}
