import { userInfo } from "node:os";
import { optionRef, RagciError } from "../../core/errors.js";
import type { ConnectionConfig, DatabaseConnection, DatabaseRow } from "./databaseConnection.js";
import { loadClient } from "./databaseConnection.js";
import { type DatabaseUrl, decoded, type Environment, pathSegments } from "./databaseUrl.js";

/** The part of trino-client 0.2 used here (dist/index.d.ts). */
interface TrinoModule {
  BasicAuth: new (username: string, password?: string) => unknown;
  Trino: {
    create(options: {
      server: string;
      source: string;
      catalog?: string;
      schema?: string;
      auth: unknown;
    }): {
      query(sql: string): Promise<AsyncIterable<TrinoResult>>;
    };
  };
}

interface TrinoResult {
  readonly columns?: readonly { readonly name: string }[];
  readonly data?: readonly unknown[][];
  readonly error?: { readonly message: string };
}

export interface TrinoConfig {
  readonly server: string;
  readonly user: string;
  readonly password?: string;
  readonly catalog?: string;
  readonly schema?: string;
}

/**
 * trino://[USER[:PASSWORD]@]HOST[:8080][/CATALOG[/SCHEMA]] over HTTP, trino+https://… (port
 * 443) over TLS, which Trino requires for a password. The user and password the URL leaves out
 * come from TRINO_USER and TRINO_PASSWORD, as Trino's CLI reads them; without a user, the
 * system user's name (as the CLI does).
 */
export function trinoConfig(target: DatabaseUrl, env: Environment): ConnectionConfig<TrinoConfig> {
  const { url } = target;
  const https = url.protocol === "trino+https:";
  const [catalog, schema, ...rest] = pathSegments(url);
  if (!url.hostname || rest.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${target.shown}: write trino://USER@HOST:8080/CATALOG/SCHEMA (password from TRINO_PASSWORD, over trino+https://)`,
      { option: "url" },
    );
  }
  const password = decoded(url.password) || env.TRINO_PASSWORD || undefined;
  const user = decoded(url.username) || env.TRINO_USER || userInfo().username;
  return {
    config: {
      server: `${https ? "https" : "http"}://${url.hostname}:${url.port || (https ? "443" : "8080")}`,
      user,
      ...(password ? { password } : {}),
      ...(catalog ? { catalog } : {}),
      ...(schema ? { schema } : {}),
    },
    secrets: [password ?? ""],
  };
}

export async function openTrino(c: TrinoConfig): Promise<DatabaseConnection> {
  const { Trino, BasicAuth } = await loadClient<TrinoModule>("trino");
  const trino = Trino.create({
    server: c.server,
    source: "ragci",
    ...(c.catalog ? { catalog: c.catalog } : {}),
    ...(c.schema ? { schema: c.schema } : {}),
    auth: new BasicAuth(c.user, c.password),
  });
  /** Trino returns a statement's rows in pages, as arrays in the order of its columns. */
  const run = async (sql: string) => {
    let columns: readonly { readonly name: string }[] = [];
    const data: unknown[][] = [];
    for await (const page of await trino.query(sql)) {
      if (page.error) throw new Error(page.error.message);
      if (page.columns) columns = page.columns;
      if (page.data) data.push(...page.data);
    }
    return { columns: columns.map((col) => col.name), data };
  };
  return {
    columns: async (sql) => (await run(sql)).columns,
    rows: async (sql) => {
      const { columns, data } = await run(sql);
      return data.map(
        (row): DatabaseRow => Object.fromEntries(columns.map((name, i) => [name, row[i]])),
      );
    },
    close: async () => {},
  };
}
