import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFacetCells, systemCellsOf } from "../../../src/ingest/readFacetCells.js";
import { dialect } from "../../../src/ingest/sql/dialects.js";
import { facetCellRows } from "../../../src/ingest/sql/facetCellRows.js";
import { facetCellsWarehouseSql } from "../../../src/ingest/sql/facetCellsWarehouseSql.js";
import { averagedSql } from "../../../src/ingest/sql/readDatabaseFacetCells.js";
import { scratchDir } from "../../cli/runCli.js";
import { forClickHouseVersion } from "../../clickhouse/olderServerSql.js";
import { startTestClickHouse, type TestClickHouse } from "../../clickhouse/server.js";
import { startTestPostgres, type TestPostgres } from "../../postgres/cluster.js";
import { insertRows } from "../../postgres/exampleTable.js";
import {
  expectCellsLikeFile,
  FACET_COLUMNS,
  FACET_TABLE_HEADER,
  facetTableCsv,
  facetTableRows,
} from "../../support/facetTable.js";

// The facet cells' statement on real PostgreSQL and ClickHouse servers (started by the test),
// against the file path's cells (DuckDB) and a two-pass recomputation from the rows.

const FILE_COLUMNS = {
  trialColumn: "epoch",
  judgeColumn: "judge",
  variantColumn: "wording",
  metrics: FACET_COLUMNS.metrics,
};

const file = join(scratchDir(), "facets.csv");
writeFileSync(file, facetTableCsv());

async function fileCells() {
  const read = await readFacetCells({
    path: file,
    file,
    format: "csv",
    doc: "doc_id",
    query: "query_id",
    system: "system",
    metrics: FACET_COLUMNS.metrics,
    trial: "epoch",
    judge: "judge",
    variant: "wording",
  });
  await read.cleanup();
  return read;
}

describe("facetCellsWarehouseSql on PostgreSQL", () => {
  let server: TestPostgres;
  let client: pg.Client;
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("DROP TABLE IF EXISTS facets");
    await client.query(
      `CREATE TABLE facets (${FACET_TABLE_HEADER.map((c, i) => `${c} ${i < 6 ? "text" : "double precision"}`).join(", ")})`,
    );
    await insertRows(client, "facets", facetTableRows());
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    server?.stop();
  });

  it("gives the file path's cells: counts, exact numeric sums, exact within-cell SS (never negative, 0 for equal trials)", async () => {
    const sql = facetCellsWarehouseSql(dialect("postgres"), { table: "facets" }, FACET_COLUMNS);
    const { rows } = await client.query(sql);
    const got = systemCellsOf(facetCellRows(rows, 3, file), FILE_COLUMNS, file);
    const expected = await fileCells();
    expect(got.rows).toBe(expected.rows);
    expectCellsLikeFile(got.cells, expected.cells, expect);
  });

  it("keeps only the systems asked for", async () => {
    const sql = facetCellsWarehouseSql(
      dialect("postgres"),
      { sql: "SELECT * FROM facets" },
      { ...FACET_COLUMNS, systems: ["b"] },
    );
    const { rows } = await client.query(sql);
    expect(new Set(rows.map((r) => r.sys))).toEqual(new Set(["b"]));
  });
});

describe("facetCellsWarehouseSql on ClickHouse", () => {
  let server: TestClickHouse;
  let adapt: (sql: string) => string;
  const run = async (sql: string) => {
    const answer = await server.query(sql);
    if (!answer.ok) throw new Error(answer.text);
    return answer.text;
  };
  beforeAll(async () => {
    server = await startTestClickHouse();
    adapt = forClickHouseVersion(server.version);
    await run("DROP TABLE IF EXISTS facets");
    await run(
      `CREATE TABLE facets (${FACET_TABLE_HEADER.map((c, i) => `${c} ${i < 6 ? "String" : "Float64"}`).join(", ")}) ENGINE = Memory`,
    );
    await run(`INSERT INTO facets FORMAT CSVWithNames\n${facetTableCsv()}`);
  }, 120_000);
  afterAll(() => server?.stop());

  it("gives the file path's cells: counts, exact Decimal256 sums, varPopStable's within-cell SS (never negative, 0 for equal trials)", async () => {
    const sql = facetCellsWarehouseSql(dialect("clickhouse"), { table: "facets" }, FACET_COLUMNS);
    const text = await run(`${adapt(sql)} FORMAT JSONEachRow`);
    const rows = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const got = systemCellsOf(facetCellRows(rows, 3, file), FILE_COLUMNS, file);
    const expected = await fileCells();
    expect(got.rows).toBe(expected.rows);
    expectCellsLikeFile(got.cells, expected.cells, expect);
  });

  it("averages each (system, document, query) over its trials, judges and wordings under the table's column names", async () => {
    const sql = averagedSql(
      dialect("clickhouse"),
      { table: "facets" },
      {
        doc: "doc_id",
        system: "system",
        query: "query_id",
        metrics: ["score"],
      },
    );
    const text = await run(`${adapt(sql)} ORDER BY system, doc_id, query_id FORMAT JSONEachRow`);
    const rows = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const means = new Map<string, number[]>();
    for (const r of facetTableRows()) {
      const key = [r[2], r[0], r[1]].join("|");
      means.set(key, [...(means.get(key) ?? []), Number(r[7])]);
    }
    expect(rows.map((r) => [r.system, r.doc_id, r.query_id].join("|"))).toEqual(
      [...means.keys()].sort(),
    );
    for (const r of rows) {
      const values = means.get([r.system, r.doc_id, r.query_id].join("|")) as number[];
      expect(r.score as number).toBeCloseTo(values.reduce((t, x) => t + x, 0) / values.length, 12);
    }
  });
});
