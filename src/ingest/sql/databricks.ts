import { optionRef, RagciError } from "../../core/errors.js";
import type { ConnectionConfig, DatabaseConnection, DatabaseRow } from "./databaseConnection.js";
import { loadClient } from "./databaseConnection.js";
import { type DatabaseUrl, decoded, type Environment, parameter } from "./databaseUrl.js";

/** The part of @databricks/sql 2.x used here (dist/DBSQLClient.d.ts, dist/contracts). */
interface DatabricksModule {
  DBSQLClient: new (options: {
    logger: { log(level: string, message: string): void };
  }) => {
    connect(options: {
      host: string;
      port?: number;
      path: string;
      token: string;
    }): Promise<unknown>;
    openSession(request: { initialCatalog?: string; initialSchema?: string }): Promise<{
      executeStatement(sql: string): Promise<{
        fetchAll(): Promise<DatabaseRow[]>;
        getSchema(): Promise<{ columns: { columnName: string }[] } | null>;
        close(): Promise<unknown>;
      }>;
      close(): Promise<unknown>;
    }>;
    close(): Promise<void>;
  };
}

export interface DatabricksConfig {
  readonly host: string;
  /** 443 unless the URL says otherwise. */
  readonly port?: number;
  /** The SQL warehouse's or cluster's HTTP path, e.g. /sql/1.0/warehouses/ID. */
  readonly path: string;
  readonly token: string;
  readonly catalog?: string;
  readonly schema?: string;
}

/**
 * databricks://HOST/HTTP-PATH[?catalog=C&schema=S]: the host and HTTP path of a SQL warehouse
 * (its "Connection details"), with a personal access token from DATABRICKS_TOKEN, as the
 * Databricks CLI reads it (or the URL's password: databricks://token:…@HOST/…).
 */
export function databricksConfig(
  target: DatabaseUrl,
  env: Environment,
): ConnectionConfig<DatabricksConfig> {
  const { url } = target;
  const path = decoded(url.pathname);
  if (!url.hostname || path === "" || path === "/") {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${target.shown}: write databricks://HOST/sql/1.0/warehouses/ID (the warehouse's host and HTTP path; the token from DATABRICKS_TOKEN)`,
      { option: "url" },
    );
  }
  const token = decoded(url.password) || env.DATABRICKS_TOKEN || "";
  if (token === "") {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${target.shown}: set DATABRICKS_TOKEN to a personal access token (it is never shown)`,
      { option: "url" },
    );
  }
  const catalog = parameter(url, "catalog");
  const schema = parameter(url, "schema");
  return {
    config: {
      host: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path,
      token,
      ...(catalog ? { catalog } : {}),
      ...(schema ? { schema } : {}),
    },
    secrets: [token],
  };
}

export async function openDatabricks(c: DatabricksConfig): Promise<DatabaseConnection> {
  const { DBSQLClient } = await loadClient<DatabricksModule>("databricks");
  // The default logger writes to the console (ragci's stdout carries the report).
  const client = new DBSQLClient({ logger: { log: () => {} } });
  await client.connect({
    host: c.host,
    ...(c.port ? { port: c.port } : {}),
    path: c.path,
    token: c.token,
  });
  const session = await client
    .openSession({
      ...(c.catalog ? { initialCatalog: c.catalog } : {}),
      ...(c.schema ? { initialSchema: c.schema } : {}),
    })
    .catch(async (error) => {
      await client.close().catch(() => {});
      throw error;
    });
  const statement = async <T>(
    sql: string,
    read: (op: Awaited<ReturnType<typeof session.executeStatement>>) => Promise<T>,
  ) => {
    const op = await session.executeStatement(sql);
    try {
      return await read(op);
    } finally {
      await op.close().catch(() => {});
    }
  };
  return {
    columns: (sql) =>
      statement(sql, async (op) =>
        ((await op.getSchema())?.columns ?? []).map((col) => col.columnName),
      ),
    rows: (sql) => statement(sql, (op) => op.fetchAll()),
    close: async () => {
      await session.close().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}
