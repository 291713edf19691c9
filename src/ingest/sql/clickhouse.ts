import { optionRef, RagciError } from "../../core/errors.js";
import type { ConnectionConfig, DatabaseConnection, DatabaseRow } from "./databaseConnection.js";
import { loadClient } from "./databaseConnection.js";
import { type DatabaseUrl, decoded, type Environment, pathSegments } from "./databaseUrl.js";

/** The part of @clickhouse/client 1.x used here (dist/index.d.ts, dist/common/client.d.ts). */
interface ClickHouseModule {
  createClient(options: ClickHouseConfig & { application: string; log: { level: number } }): {
    query(params: { query: string; format: "JSON" }): Promise<{
      json(): Promise<{ data: DatabaseRow[]; meta?: { name: string }[] }>;
    }>;
    close(): Promise<void>;
  };
}

export interface ClickHouseConfig {
  /** The HTTP(S) interface, without credentials. */
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  readonly database?: string;
}

/**
 * clickhouse://[USER[:PASSWORD]@]HOST[:8123][/DATABASE] over HTTP, clickhouse+https://…:8443
 * over TLS (the client speaks ClickHouse's HTTP interface). User and password the URL leaves
 * out come from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD, as clickhouse-client reads them.
 */
export function clickhouseConfig(
  target: DatabaseUrl,
  env: Environment,
): ConnectionConfig<ClickHouseConfig> {
  const { url } = target;
  const https = url.protocol === "clickhouse+https:";
  const [database, ...rest] = pathSegments(url);
  if (!url.hostname || rest.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${target.shown}: write clickhouse://HOST:8123/DATABASE (user and password from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD)`,
      { option: "url" },
    );
  }
  const port = url.port || (https ? "8443" : "8123");
  const username = decoded(url.username) || env.CLICKHOUSE_USER || undefined;
  const password = decoded(url.password) || env.CLICKHOUSE_PASSWORD || undefined;
  return {
    config: {
      url: `${https ? "https" : "http"}://${url.hostname}:${port}`,
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(database ? { database } : {}),
    },
    secrets: [password ?? ""],
  };
}

export async function openClickHouse(c: ClickHouseConfig): Promise<DatabaseConnection> {
  const { createClient } = await loadClient<ClickHouseModule>("clickhouse");
  // Logging off (ClickHouseLogLevel.OFF = 127): the client logs failed requests, with their
  // details, to the console itself; ragci reports the error once, scrubbed.
  const client = createClient({ ...c, application: "ragci", log: { level: 127 } });
  const query = async (sql: string) => (await client.query({ query: sql, format: "JSON" })).json();
  return {
    columns: async (sql) => ((await query(sql)).meta ?? []).map((m) => m.name),
    rows: async (sql) => (await query(sql)).data,
    close: () => client.close(),
  };
}
