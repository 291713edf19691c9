import { optionRef, RagciError } from "../../core/errors.js";
import type { ConnectionConfig, DatabaseConnection, DatabaseRow } from "./databaseConnection.js";
import { loadClient } from "./databaseConnection.js";
import {
  type DatabaseUrl,
  decoded,
  type Environment,
  parameter,
  pathSegments,
} from "./databaseUrl.js";

/** The part of snowflake-sdk 3.x used here (dist/index.d.ts). */
interface SnowflakeModule {
  configure(options: { logLevel?: "OFF" }): void;
  createConnection(options: SnowflakeConfig & { application: string }): SnowflakeConnection;
}

interface SnowflakeStatement {
  getColumns(): { getName(): string }[] | undefined;
}

interface SnowflakeConnection {
  connect(callback: (error: Error | undefined) => void): void;
  connectAsync(callback?: (error: Error | undefined) => void): Promise<unknown>;
  execute(options: {
    sqlText: string;
    complete: (
      error: Error | undefined,
      statement: SnowflakeStatement,
      rows?: DatabaseRow[],
    ) => void;
  }): unknown;
  destroy(callback: (error: Error | undefined) => void): void;
}

export interface SnowflakeConfig {
  readonly account: string;
  readonly username?: string;
  readonly password?: string;
  readonly authenticator?: string;
  readonly privateKeyPath?: string;
  readonly privateKeyPass?: string;
  readonly database?: string;
  readonly schema?: string;
  readonly warehouse?: string;
  readonly role?: string;
}

/**
 * snowflake://[USER[:PASSWORD]@]ACCOUNT[/DATABASE[/SCHEMA]][?warehouse=WH&role=R&authenticator=A].
 * What the URL leaves out comes from the Snowflake CLI's environment variables: SNOWFLAKE_USER,
 * SNOWFLAKE_PASSWORD, SNOWFLAKE_AUTHENTICATOR, SNOWFLAKE_PRIVATE_KEY_FILE (key-pair login,
 * with SNOWFLAKE_PRIVATE_KEY_PASSPHRASE when the key is encrypted), SNOWFLAKE_WAREHOUSE,
 * SNOWFLAKE_ROLE.
 */
export function snowflakeConfig(
  target: DatabaseUrl,
  env: Environment,
): ConnectionConfig<SnowflakeConfig> {
  const { url } = target;
  const [database, schema, ...rest] = pathSegments(url);
  if (!url.hostname || rest.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${target.shown}: write snowflake://ACCOUNT/DATABASE/SCHEMA?warehouse=WH (user and password from SNOWFLAKE_USER and SNOWFLAKE_PASSWORD)`,
      { option: "url" },
    );
  }
  const given = (value: string | undefined) => (value ? value : undefined);
  const password = given(decoded(url.password)) ?? given(env.SNOWFLAKE_PASSWORD);
  const privateKeyPath = given(env.SNOWFLAKE_PRIVATE_KEY_FILE);
  const privateKeyPass = given(env.SNOWFLAKE_PRIVATE_KEY_PASSPHRASE);
  const authenticator =
    parameter(url, "authenticator") ??
    given(env.SNOWFLAKE_AUTHENTICATOR) ??
    (privateKeyPath && !password ? "SNOWFLAKE_JWT" : undefined);
  const entries: [keyof SnowflakeConfig, string | undefined][] = [
    ["username", given(decoded(url.username)) ?? given(env.SNOWFLAKE_USER)],
    ["password", password],
    ["authenticator", authenticator],
    ["privateKeyPath", privateKeyPath],
    ["privateKeyPass", privateKeyPass],
    ["database", database],
    ["schema", schema],
    ["warehouse", parameter(url, "warehouse") ?? given(env.SNOWFLAKE_WAREHOUSE)],
    ["role", parameter(url, "role") ?? given(env.SNOWFLAKE_ROLE)],
  ];
  return {
    config: {
      // Account identifiers are case-insensitive; URL hosts of other schemes keep their case.
      account: decoded(url.hostname),
      ...Object.fromEntries(entries.filter(([, v]) => v !== undefined)),
    },
    secrets: [password ?? "", privateKeyPass ?? ""],
  };
}

export async function openSnowflake(c: SnowflakeConfig): Promise<DatabaseConnection> {
  const sf = await loadClient<SnowflakeModule>("snowflake");
  // The driver would otherwise write snowflake.log into the working directory.
  sf.configure({ logLevel: "OFF" });
  const connection = sf.createConnection({ ...c, application: "ragci" });
  // Browser and Okta logins need connectAsync; the others connect.
  const interactive = /^(externalbrowser|https:)/i.test(c.authenticator ?? "");
  await (interactive
    ? connection.connectAsync()
    : new Promise<void>((resolve, reject) =>
        connection.connect((error) => (error ? reject(error) : resolve())),
      ));
  const execute = (sqlText: string) =>
    new Promise<{ statement: SnowflakeStatement; rows: DatabaseRow[] }>((resolve, reject) => {
      connection.execute({
        sqlText,
        complete: (error, statement, rows) =>
          error ? reject(error) : resolve({ statement, rows: rows ?? [] }),
      });
    });
  return {
    columns: async (sql) =>
      ((await execute(sql)).statement.getColumns() ?? []).map((col) => col.getName()),
    rows: async (sql) => (await execute(sql)).rows,
    close: () => new Promise<void>((resolve) => connection.destroy(() => resolve())),
  };
}
