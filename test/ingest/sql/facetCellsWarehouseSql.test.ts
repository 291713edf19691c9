import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import { sqlString } from "../../../src/ingest/inputFormat.js";
import { readFacetCells, systemCellsOf } from "../../../src/ingest/readFacetCells.js";
import { dialect } from "../../../src/ingest/sql/dialects.js";
import { facetCellRows } from "../../../src/ingest/sql/facetCellRows.js";
import { facetCellsWarehouseSql } from "../../../src/ingest/sql/facetCellsWarehouseSql.js";
import { scratchDir } from "../../cli/runCli.js";
import { expectCellsLikeFile, FACET_COLUMNS, facetTableCsv } from "../../support/facetTable.js";

const FILE_COLUMNS = {
  trialColumn: "epoch",
  judgeColumn: "judge",
  variantColumn: "wording",
  metrics: FACET_COLUMNS.metrics,
};

describe("facetCellsWarehouseSql: the facet cells in a warehouse's dialect", () => {
  const file = join(scratchDir(), "facets.csv");
  writeFileSync(file, facetTableCsv());
  const fromFile = () =>
    readFacetCells({
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

  it("DuckDB's dialect gives the file path's cells: counts, exact sums, within-cell SS never negative, 0 for equal trials", async () => {
    const expected = await fromFile();
    await expected.cleanup();
    const rows = await withDuckDb(async (c) => {
      await c.run(
        `CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(file)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR', 'epoch': 'VARCHAR'})`,
      );
      return queryRows(
        c,
        facetCellsWarehouseSql(dialect("duckdb"), { table: "results" }, FACET_COLUMNS),
      );
    });
    const got = systemCellsOf(facetCellRows(rows, 3, file), FILE_COLUMNS, file);
    expect(got.rows).toBe(expected.rows);
    expect(got.notices).toEqual(expected.notices.slice(1));
    expectCellsLikeFile(got.cells, expected.cells, expect);
  });

  it("one statement for files and databases: DuckDB's dialect gives the file path's Σx and Σ(x − x̄)² bit for bit", async () => {
    const expected = await fromFile();
    await expected.cleanup();
    const rows = await withDuckDb(async (c) => {
      await c.run(
        `CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(file)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR', 'epoch': 'VARCHAR'})`,
      );
      return queryRows(
        c,
        facetCellsWarehouseSql(dialect("duckdb"), { table: "results" }, FACET_COLUMNS),
      );
    });
    const got = systemCellsOf(facetCellRows(rows, 3, file), FILE_COLUMNS, file);
    expect(got.cells.length).toBe(expected.cells.length);
    got.cells.forEach((g, k) => {
      const f = expected.cells[k];
      expect([g.system, g.metric]).toEqual([f?.system, f?.metric]);
      expect([...g.cells.sum]).toEqual([...(f?.cells.sum ?? [])]);
      expect([...g.cells.withinSumOfSquares]).toEqual([...(f?.cells.withinSumOfSquares ?? [])]);
    });
  });

  it("refuses a repeated trial, a value that is not finite, and a ClickHouse column another role's alias would hide", async () => {
    const bad = async (extra: string) =>
      withDuckDb(async (c) => {
        await c.run(
          `CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(file)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR', 'epoch': 'VARCHAR'})`,
        );
        await c.run(`INSERT INTO results VALUES ${extra}`);
        const rows = await queryRows(
          c,
          facetCellsWarehouseSql(dialect("duckdb"), { table: "results" }, FACET_COLUMNS),
        );
        return () => systemCellsOf(facetCellRows(rows, 3, "results"), FILE_COLUMNS, "results");
      });
    expect(await bad("('d0', 'd0q0', 'a', '1', 'lenient', 'v1', 1, 0.5, 1)")).toThrow(
      "system a, document d0, query d0q0, judge lenient, variant v1 has 2 rows but 1 distinct trials in column epoch",
    );
    expect(await bad("('d0', 'd0q0', 'a', '9', 'lenient', 'v1', 1, 'nan', 1)")).toThrow(
      "has a metric value that is empty, not a number or infinite",
    );
    expect(() =>
      facetCellsWarehouseSql(
        dialect("clickhouse"),
        { table: "t" },
        { ...FACET_COLUMNS, judge: "w" },
      ),
    ).toThrow("the judge column w: ragci's clickhouse statement names a column of its own w");
  });
});
