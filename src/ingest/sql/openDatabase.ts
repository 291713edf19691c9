import { bigqueryConfig, openBigQuery } from "./bigquery.js";
import { clickhouseConfig, openClickHouse } from "./clickhouse.js";
import type { DatabaseConnection } from "./databaseConnection.js";
import type { DatabaseUrl, Environment } from "./databaseUrl.js";
import { databricksConfig, openDatabricks } from "./databricks.js";
import { openPostgres, postgresConfig } from "./postgres.js";
import { openSnowflake, snowflakeConfig } from "./snowflake.js";
import { openTrino, trinoConfig } from "./trino.js";

/** How to reach a warehouse: the secrets no message may show, and how to connect. */
export interface DatabaseAccess {
  readonly secrets: readonly string[];
  readonly open: () => Promise<DatabaseConnection>;
}

/**
 * The settings of a --from URL with the credentials it leaves out taken from `env` (each
 * client's usual variables); nothing is loaded or connected until `open`.
 *
 * @throws RagciError when the URL lacks what its warehouse needs
 */
export function databaseAccess(target: DatabaseUrl, env: Environment): DatabaseAccess {
  const access = <T>(
    c: { config: T; secrets: readonly string[] },
    open: (config: T) => Promise<DatabaseConnection>,
  ): DatabaseAccess => ({ secrets: c.secrets, open: () => open(c.config) });
  switch (target.warehouse) {
    case "postgres":
      return access(postgresConfig(target), openPostgres);
    case "bigquery":
      return access(bigqueryConfig(target), openBigQuery);
    case "snowflake":
      return access(snowflakeConfig(target, env), openSnowflake);
    case "clickhouse":
      return access(clickhouseConfig(target, env), openClickHouse);
    case "trino":
      return access(trinoConfig(target, env), openTrino);
    case "databricks":
      return access(databricksConfig(target, env), openDatabricks);
  }
}
