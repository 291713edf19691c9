import { readFileSync } from "node:fs";
import type pg from "pg";
import { EXAMPLE } from "../cli/runCli.js";

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
  for (let i = 0; i < lines.length; i += 500) {
    const batch = lines.slice(i, i + 500).map((l) => l.split(","));
    const values = batch.map(
      (_, r) => `(${[1, 2, 3, 4, 5, 6, 7, 8].map((c) => `$${r * 8 + c}`).join(", ")})`,
    );
    await client.query(
      `INSERT INTO ${name} VALUES ${values.join(", ")}`,
      batch.flat().map((v) => (v === "" ? null : v)),
    );
  }
}
