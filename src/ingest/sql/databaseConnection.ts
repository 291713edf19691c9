import { createRequire } from "node:module";
import { RagciError } from "../../core/errors.js";
import { errorLine } from "../errorLine.js";
import { WAREHOUSES, type Warehouse } from "./databaseUrl.js";

/** One row of a result, by column name (numbers may come as text, bigint or a client's wrapper). */
export type DatabaseRow = Readonly<Record<string, unknown>>;

/** An open connection to a warehouse, as the readers use it. Errors are the client's own. */
export interface DatabaseConnection {
  /** The column names of a statement's result (sourceColumnsSql), reading no rows where it can. */
  readonly columns: (sql: string) => Promise<string[]>;
  /** The rows of one statement. */
  readonly rows: (sql: string) => Promise<DatabaseRow[]>;
  readonly close: () => Promise<void>;
}

/** A warehouse's connection settings, and the secrets among them that no message may show. */
export interface ConnectionConfig<T> {
  readonly config: T;
  readonly secrets: readonly string[];
}

/**
 * The warehouse's client package, imported only now (it is an optional peer dependency).
 *
 * @throws RagciError naming the package to install when it is absent
 */
export async function loadClient<T>(warehouse: Warehouse): Promise<T> {
  const { client, install, label } = WAREHOUSES[warehouse];
  // Node's own resolution from ragci's place first: absent is MODULE_NOT_FOUND (a package
  // that only exports for import fails otherwise, and is then imported below).
  try {
    createRequire(import.meta.url).resolve(client);
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND") {
      throw new RagciError(
        "invalid-option",
        `reading ${label} needs the package ${client}, which is not installed: npm install ${install} (beside ragci)`,
      );
    }
  }
  const loaded = await import(client);
  // CommonJS packages: the exports are on `default` (named ones too, when Node finds them).
  return (loaded.default ?? loaded) as T;
}

/** A client's error as one line, with every secret replaced by ***. */
export function scrubbed(error: unknown, secrets: readonly string[]): string {
  let line = errorLine(error);
  for (const secret of secrets) if (secret) line = line.replaceAll(secret, "***");
  return line;
}
