import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import { sqlString } from "../../../src/ingest/inputFormat.js";
import { readFacetCells, systemCellsOf } from "../../../src/ingest/readFacetCells.js";
import { dialect } from "../../../src/ingest/sql/dialects.js";
import { facetCellRows } from "../../../src/ingest/sql/facetCellRows.js";
import { facetCellsWarehouseSql } from "../../../src/ingest/sql/facetCellsWarehouseSql.js";
import { perDocumentSql } from "../../../src/ingest/sql/perDocumentSql.js";
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
        trial: "epoch",
        judge: "judge",
        variant: "wording",
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

  it("compare --from's paired statement over the averaged rows (what readDatabasePairedTables runs with facets) gives DuckDB's", async () => {
    const spec = (d: ReturnType<typeof dialect>) =>
      perDocumentSql(d, {
        source: {
          sql: averagedSql(
            d,
            { table: "facets" },
            {
              doc: "doc_id",
              system: "system",
              query: "query_id",
              metrics: ["score", "big"],
              trial: "epoch",
              judge: "judge",
              variant: "wording",
            },
          ),
        },
        doc: "doc_id",
        metrics: ["score", "big"],
        system: "system",
        systems: ["a", "b"],
        query: "query_id",
        pairs: [["a", "b"]],
        intersect: false,
        label: null,
      });
    const text = await run(`${adapt(spec(dialect("clickhouse")))} FORMAT JSONEachRow`);
    const got = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const want = await withDuckDb(async (c) => {
      await c.run(
        `CREATE TABLE facets AS SELECT * FROM read_csv(${sqlString(file)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR', 'epoch': 'VARCHAR'})`,
      );
      return queryRows(c, spec(dialect("duckdb")));
    });
    expect(got.length).toBeGreaterThan(0);
    const ids = (rows: Record<string, unknown>[]) =>
      rows.map((r) => [r.system, r.metric, r.doc, Number(r.n)]);
    expect(ids(got)).toEqual(ids(want));
    got.forEach((r, i) => {
      for (const k of ["s", "ss"]) {
        const [x, y] = [Number(r[k]), Number((want[i] as Record<string, unknown>)[k])];
        expect(Math.abs(x - y), `${k} of row ${i}`).toBeLessThanOrEqual(
          1e-9 * Math.max(1, Math.abs(y)),
        );
      }
    });
  });
});
