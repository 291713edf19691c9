import { readFileSync } from "node:fs";
import type pg from "pg";
import { queryRows, withDuckDb } from "../../src/ingest/duckdb.js";
import { sqlString } from "../../src/ingest/inputFormat.js";
import { EXAMPLE } from "../cli/runCli.js";

/** Rows into PostgreSQL table `name`, 500 to an INSERT; an empty string goes in as NULL. */
export async function insertRows(
  client: pg.Client,
  name: string,
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    const width = batch[0]?.length ?? 0;
    const values = batch.map(
      (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(", ")})`,
    );
    await client.query(
      `INSERT INTO ${name} VALUES ${values.join(", ")}`,
      batch.flat().map((v) => (v === "" ? null : v)),
    );
  }
}

/**
 * The bundled example (or a CSV of its columns) as PostgreSQL table `name` (ids as text, as the
 * file path reads them).
 */
export async function loadExampleTable(
  client: pg.Client,
  name: string,
  path: string = EXAMPLE,
): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${name}`);
  await client.query(
    `CREATE TABLE ${name} (doc_id text, query_id text, system text, rank integer, hit1 integer, hit5 integer, hit10 integer, rr double precision)`,
  );
  const [, ...lines] = readFileSync(path, "utf8").trim().split(/\r?\n/);
  await insertRows(
    client,
    name,
    lines.map((l) => l.split(",")),
  );
}

/**
 * A CSV of doc_id, query_id, system, score as PostgreSQL table `name`, with the values as DuckDB
 * parses the file, so that the database and the file path start from the same doubles.
 */
export async function loadScoreTable(client: pg.Client, name: string, path: string): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${name}`);
  await client.query(
    `CREATE TABLE ${name} (doc_id text, query_id text, system text, score double precision)`,
  );
  const rows = await withDuckDb((c) =>
    queryRows(
      c,
      `SELECT * FROM read_csv(${sqlString(path)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR', 'score': 'DOUBLE'})`,
    ),
  );
  await insertRows(
    client,
    name,
    rows.map((r) => [r.doc_id, r.query_id, r.system, r.score]),
  );
}
