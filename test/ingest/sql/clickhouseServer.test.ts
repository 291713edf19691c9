import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import { sqlString } from "../../../src/ingest/inputFormat.js";
import { dialect } from "../../../src/ingest/sql/dialects.js";
import {
  droppedQueriesSql,
  type PerDocumentSqlSpec,
  perDocumentSql,
} from "../../../src/ingest/sql/perDocumentSql.js";
import { failedCheckMessage } from "../../../src/ingest/sql/rowChecksSql.js";
import { EXAMPLE } from "../../cli/runCli.js";
import { forClickHouseVersion } from "../../clickhouse/olderServerSql.js";
import { startTestClickHouse, type TestClickHouse } from "../../clickhouse/server.js";
import {
  EXAMPLE_PAIRED_SPEC,
  EXAMPLE_SPEC,
  GAPS_PAIRED_SPEC,
  GAPS_WHERE,
  T_SPEC,
} from "../../support/exampleSql.js";

// ragci's ClickHouse statements on a real ClickHouse server (Debian's, started by the test),
// against what the same statements give in DuckDB (where they are checked against the file
// path: perDocumentSql.test.ts). DuckDB cannot show ClickHouse's own rules: a NULL cast to a
// plain type is an error there, and (in 18.16) any text cast to Nullable(Int32) is NULL.

const clickhouse = dialect("clickhouse");

type Row = Record<string, unknown>;

describe("perDocumentSql's ClickHouse statements on a real ClickHouse server", () => {
  let server: TestClickHouse;
  let adapt: (sql: string) => string;
  const rowsOf = async (sql: string): Promise<Row[]> => {
    const answer = await server.query(`${adapt(sql)} FORMAT JSONEachRow`);
    if (!answer.ok) throw new Error(answer.text);
    return answer.text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Row);
  };
  /** The message of the error the statement fails with ("" when it does not fail). */
  const failureOf = (sql: string) =>
    rowsOf(sql).then(
      () => "",
      (e: Error) => e.message,
    );
  const run = async (sql: string) => {
    const answer = await server.query(sql);
    if (!answer.ok) throw new Error(answer.text);
  };

  beforeAll(async () => {
    server = await startTestClickHouse();
    adapt = forClickHouseVersion(server.version);
    await run("DROP TABLE IF EXISTS results");
    await run(
      "CREATE TABLE results (doc_id String, query_id String, system String, rank Int32, hit1 UInt8, hit5 UInt8, hit10 UInt8, rr Float64) ENGINE = Memory",
    );
    await run(`INSERT INTO results FORMAT CSVWithNames\n${readFileSync(EXAMPLE, "utf8")}`);
  }, 60_000);
  afterAll(() => server?.stop());

  /** DuckDB's rows for `sql` (duckdb's dialect) on tables results (the example) and gaps. */
  const onDuckDb = (sql: string) =>
    withDuckDb(async (c) => {
      await c.run(
        `CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(EXAMPLE)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR'})`,
      );
      await c.run(`CREATE TABLE gaps AS SELECT * FROM results WHERE ${GAPS_WHERE}`);
      return queryRows(c, sql);
    });
  const duckdb = dialect("duckdb");

  /** Rows equal: ids and counts exactly, sums and extremes to 1e-12 (0/1 sums exactly). */
  const expectSameTable = (got: Row[], want: Row[]) => {
    expect(got.map((r) => [r.system, r.metric, r.doc, Number(r.n)])).toEqual(
      want.map((r) => [r.system, r.metric, r.doc, Number(r.n)]),
    );
    got.forEach((r, i) => {
      const w = want[i] as Row;
      for (const k of ["s", "ss", "min", "max"]) {
        const [a, b] = [Number(r[k]), Number(w[k])];
        if (r.metric === "hit5") expect(a).toBe(b);
        else expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(b)));
      }
    });
  };

  it("gives DuckDB's per-document table: each system, and paired with the differences", async () => {
    for (const spec of [EXAMPLE_SPEC, EXAMPLE_PAIRED_SPEC]) {
      const got = await rowsOf(perDocumentSql(clickhouse, spec));
      expect(got.length).toBeGreaterThan(0);
      expectSameTable(got, await onDuckDb(perDocumentSql(duckdb, spec)));
    }
  }, 60_000);

  it("with --intersect: the common queries' table and the dropped counts, as DuckDB's", async () => {
    await run("DROP TABLE IF EXISTS gaps");
    await run("CREATE TABLE gaps AS results");
    await run(`INSERT INTO gaps SELECT * FROM results WHERE ${GAPS_WHERE}`);
    const error = await failureOf(perDocumentSql(clickhouse, GAPS_PAIRED_SPEC));
    expect(failedCheckMessage(error)).toContain(
      "3 queries have a result for some of the systems (bm25, tfidf) but not all",
    );
    const kept = { ...GAPS_PAIRED_SPEC, intersect: true };
    expectSameTable(
      await rowsOf(perDocumentSql(clickhouse, kept)),
      await onDuckDb(perDocumentSql(duckdb, kept)),
    );
    const counts = (rows: Row[]) => rows.map((r) => [Number(r.dropped0), Number(r.dropped1)]);
    expect(counts(await rowsOf(droppedQueriesSql(clickhouse, kept)))).toEqual([[1, 2]]);
    expect(counts(await onDuckDb(droppedQueriesSql(duckdb, kept)))).toEqual([[1, 2]]);
  }, 60_000);

  /** Table t (T_SPEC's columns, all Nullable) holding `rows`. */
  const tableT = async (rows: string) => {
    await run("DROP TABLE IF EXISTS t");
    await run(
      "CREATE TABLE t (doc Nullable(String), sys Nullable(String), q Nullable(String), hit Nullable(Float64)) ENGINE = Memory",
    );
    await run(`INSERT INTO t VALUES ${rows}`);
  };
  const cases: {
    name: string;
    rows: string;
    spec: Partial<PerDocumentSqlSpec>;
    message: string;
  }[] = [
    {
      name: "a NULL value",
      rows: "('a', 's', 'q1', 1), ('a', 's', 'q2', NULL), ('b', 's', 'q3', 0)",
      spec: {},
      message: "1 rows have hit NULL, NaN or infinite; every result needs a finite value",
    },
    {
      name: "NaN and an infinite value",
      rows: "('a', 's', 'q1', nan), ('a', 's', 'q2', -inf), ('b', 's', 'q3', 0)",
      spec: {},
      message: "2 rows have hit NULL, NaN or infinite; every result needs a finite value",
    },
    {
      name: "a NULL and a blank document id",
      rows: "('a', 's', 'q1', 1), ('  ', 's', 'q2', 1), (NULL, 's', 'q3', 0)",
      spec: {},
      message: "2 rows have no doc (NULL or empty); every row needs a document id",
    },
    {
      // Blank is rowRules.ts's set: a tab, a no-break space, a newline and an ideographic space
      // are blank; a zero-width space is not (nor in JavaScript), so 4 rows, not 5.
      name: "ids made of tabs, no-break spaces, newlines",
      rows: "('a', 's', 'q1', 1), ('\\t\\t', 's', 'q2', 1), ('\\xC2\\xA0', 's', 'q3', 1), ('\\n', 's', 'q4', 0), (' \\xE3\\x80\\x80', 's', 'q5', 0), ('\\xE2\\x80\\x8B', 's', 'q6', 0)",
      spec: {},
      message: "4 rows have no doc (NULL or empty); every row needs a document id",
    },
    {
      name: "a NULL system",
      rows: "('a', NULL, 'q1', 1), ('b', 's', 'q2', 0)",
      spec: {},
      message: "1 rows have no sys (NULL or empty); every row needs a system",
    },
    {
      name: "a query given twice for a system",
      rows: "('a', 'A', 'q1', 1), ('a', 'A', 'q1', 1), ('a', 'B', 'q1', 0), ('b', 'A', 'q2', 0), ('b', 'B', 'q2', 0)",
      spec: { query: "q", systems: ["A", "B"], pairs: [["A", "B"]] },
      message: "1 queries appear more than once for a system in q",
    },
    {
      name: "a query of one system only",
      rows: "('a', 'A', 'q1', 1), ('a', 'B', 'q1', 0), ('b', 'A', 'q2', 0)",
      spec: { query: "q", systems: ["A", "B"], pairs: [["A", "B"]] },
      message: "1 queries have a result for some of the systems (A, B) but not all",
    },
  ];
  for (const c of cases) {
    it(`${c.name}: the statement fails with ragci's message`, async () => {
      await tableT(c.rows);
      const error = await failureOf(perDocumentSql(clickhouse, { ...T_SPEC, ...c.spec }));
      expect(failedCheckMessage(error)).toContain(c.message);
    });
  }

  it("passes clean rows in Nullable columns (the guard is NULL)", async () => {
    await tableT("('a', 's', 'q1', 1), ('a', 's', 'q2', 0.5), ('b', 's', 'q3', 0)");
    const rows = await rowsOf(perDocumentSql(clickhouse, T_SPEC));
    expect(rows).toEqual([
      { system: "s", metric: "hit", doc: "a", n: 2, s: 1.5, ss: 1.25, min: 0.5, max: 1 },
      { system: "s", metric: "hit", doc: "b", n: 1, s: 0, ss: 0, min: 0, max: 0 },
    ]);
  });

  it("is the server's own rule that the casts and the guard are written for", async () => {
    // What ragci avoids: a NULL cast to a plain type is an error…
    const plain = await server.query("SELECT CAST(CAST(NULL AS Nullable(String)) AS String)");
    expect(plain.ok).toBe(false);
    expect(plain.text).toMatch(/Cannot convert NULL value to non-Nullable type/);
    // …a name is an alias of the same SELECT before it is a column (aliasShadowing.ts)…
    await run("DROP TABLE IF EXISTS u");
    await run("CREATE TABLE u (doc_id String, doc String) ENGINE = Memory");
    await run("INSERT INTO u VALUES ('d1', 'bm25')");
    const shadowed = await server.query(
      'SELECT CAST("doc_id" AS Nullable(String)) AS doc, CAST("doc" AS Nullable(String)) AS sys FROM u FORMAT JSONEachRow',
    );
    expect(shadowed.text.trim()).toBe('{"doc":"d1","sys":"d1"}');
    // …and the guard's failure, and its NULL when every check passes.
    const failing = await server.query(`SELECT ${clickhouse.failCast("'ragci: 3 rows have x'")}`);
    expect(failing.ok).toBe(false);
    expect(failedCheckMessage(failing.text)).toBe("3 rows have x");
    const passing = await server.query(
      `SELECT ${clickhouse.failCast("CAST(NULL AS Nullable(String))")} AS f FORMAT JSONEachRow`,
    );
    expect(passing.text.trim()).toBe('{"f":null}');
  });
});
