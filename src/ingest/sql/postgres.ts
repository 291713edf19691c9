import type pg from "pg";
import type { ConnectionConfig, DatabaseConnection } from "./databaseConnection.js";
import { loadClient } from "./databaseConnection.js";
import { type DatabaseUrl, decoded } from "./databaseUrl.js";

/**
 * PostgreSQL through pg: the URL as pg reads it; anything it leaves out (user, password, …)
 * from pg's usual environment variables (PGUSER, PGPASSWORD, …), which pg reads itself.
 */
export function postgresConfig(target: DatabaseUrl): ConnectionConfig<string> {
  return { config: target.url.toString(), secrets: [decoded(target.url.password)] };
}

export async function openPostgres(connectionString: string): Promise<DatabaseConnection> {
  const { Client } = await loadClient<typeof pg>("postgres");
  const client = new Client({ connectionString });
  try {
    await client.connect();
    // Any value > 0 makes float8 text the shortest exact form (PostgreSQL ≥ 12), which the
    // exact sums and the transfer of the results rely on.
    await client.query("SET extra_float_digits = 3");
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return {
    columns: async (sql) => (await client.query(sql)).fields.map((f) => f.name),
    rows: async (sql) => (await client.query(sql)).rows,
    close: () => client.end().catch(() => {}),
  };
}
