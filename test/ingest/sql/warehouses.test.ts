import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RagciError } from "../../../src/core/errors.js";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import { readPairedResults } from "../../../src/ingest/index.js";
import { sqlString } from "../../../src/ingest/inputFormat.js";
import { bigqueryConfig } from "../../../src/ingest/sql/bigquery.js";
import { clickhouseConfig } from "../../../src/ingest/sql/clickhouse.js";
import { loadClient, scrubbed } from "../../../src/ingest/sql/databaseConnection.js";
import {
  parseDatabaseUrl,
  WAREHOUSES,
  type Warehouse,
} from "../../../src/ingest/sql/databaseUrl.js";
import { databricksConfig } from "../../../src/ingest/sql/databricks.js";
import { dialect } from "../../../src/ingest/sql/dialects.js";
import { databaseAccess } from "../../../src/ingest/sql/openDatabase.js";
import { droppedQueriesSql, perDocumentSql } from "../../../src/ingest/sql/perDocumentSql.js";
import { postgresConfig } from "../../../src/ingest/sql/postgres.js";
import { readDatabase, systemsFoundSql } from "../../../src/ingest/sql/readDatabase.js";
import { snowflakeConfig } from "../../../src/ingest/sql/snowflake.js";
import { sourceColumnsSql, sourceFromSql } from "../../../src/ingest/sql/sourceRowsSql.js";
import { trinoConfig } from "../../../src/ingest/sql/trino.js";
import { EXAMPLE, ROOT } from "../../cli/runCli.js";
import { dialectOnDuckDb } from "../../support/dialectsOnDuckDb.js";
import { GAPS_PAIRED_SPEC, GAPS_WHERE } from "../../support/exampleSql.js";

const OPTIONAL: Warehouse[] = ["bigquery", "snowflake", "clickhouse", "trino", "databricks"];

/**
 * What Node's resolution sees, whatever this machine has installed: the packages in `absent`
 * are not found (MODULE_NOT_FOUND, as Node says it) and those in `present` resolve to a stand-in
 * path; everything else resolves as usual (DuckDB, sql.js and pg are real).
 */
const resolution = vi.hoisted(() => ({ absent: new Set<string>(), present: new Set<string>() }));
vi.mock("node:module", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:module")>();
  const createRequire = (from: string | URL) => {
    const require = real.createRequire(from);
    const resolve = (id: string, options?: { paths?: string[] }) => {
      if (resolution.absent.has(id)) {
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
      }
      if (resolution.present.has(id)) return `/node_modules/${id}/index.js`;
      return require.resolve(id, options);
    };
    return Object.assign((id: string) => require(id), require, {
      resolve: Object.assign(resolve, { paths: require.resolve.paths }),
    });
  };
  // Named import (ragci's) and default import alike.
  return { ...real, createRequire, default: { ...real, createRequire } };
});
// An installed client, as loadClient imports it (a CommonJS package: its exports on `default`).
vi.mock("trino-client", () => ({ default: { Trino: { create: () => "a Trino client" } } }));

describe("the warehouses' clients are optional peer dependencies", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

  // Every optional client is missing unless a test says otherwise.
  const missingAll = () => {
    resolution.present.clear();
    for (const w of OPTIONAL) resolution.absent.add(WAREHOUSES[w].client);
  };
  missingAll();
  afterEach(missingAll);

  it("package.json declares each as an optional peer dependency", () => {
    for (const w of OPTIONAL) {
      const { client } = WAREHOUSES[w];
      expect(pkg.peerDependencies?.[client], client).toMatch(/^[~^]\d+\.\d+\.\d+$/);
      expect(pkg.peerDependenciesMeta?.[client], client).toEqual({ optional: true });
      expect(pkg.dependencies?.[client], client).toBeUndefined();
    }
  });

  for (const w of OPTIONAL) {
    const { client, install, label } = WAREHOUSES[w];
    it(`${label}: a missing ${client} is one line naming what to install`, async () => {
      const error = await loadClient(w).catch((e: Error) => e);
      expect(error).toBeInstanceOf(RagciError);
      expect((error as Error).message).toBe(
        `reading ${label} needs the package ${client}, which is not installed: npm install ${install} (beside ragci)`,
      );
    });
  }

  it("an installed client is imported, its CommonJS exports taken from `default`", async () => {
    resolution.absent.delete("trino-client");
    resolution.present.add("trino-client");
    const trino = await loadClient<{ Trino: { create: () => string } }>("trino");
    expect(trino.Trino.create()).toBe("a Trino client");
  });

  it("pg (a dependency) loads", async () => {
    const pg = await loadClient<{ Client: unknown }>("postgres");
    expect(typeof pg.Client).toBe("function");
  });

  it("readDatabase says it before connecting, with the URL's password hidden", async () => {
    const urls = [
      "clickhouse://me:s3cr%C3%A9t@127.0.0.1:1/db",
      "trino+https://me:s3cr%C3%A9t@127.0.0.1:1/hive/web",
      "snowflake://me:s3cr%C3%A9t@acct-1/DB/PUBLIC?warehouse=WH",
      "databricks://token:s3cr%C3%A9t@adb-1.azuredatabricks.net/sql/1.0/warehouses/abc",
      "bigquery://my-project/evals",
    ];
    for (const url of urls) {
      const error = await readDatabase({
        url,
        env: {},
        source: { table: "results" },
        metrics: ["hit"],
      }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message;
      expect(message).toMatch(/^`url` [a-z+]+:\/\/.*: reading \w+ needs the package /);
      expect(message).not.toMatch(/s3cr/);
      if (url.includes("s3cr")) expect(message).toContain(":***@");
    }
  });
});

describe("--from URLs: each warehouse's settings, credentials from its usual variables", () => {
  const access = (url: string, env: Record<string, string> = {}) =>
    databaseAccess(parseDatabaseUrl(url), env);
  /** The settings an open would pass to the client, and the secrets no message may show. */
  const config = async (url: string, env: Record<string, string> = {}) => {
    const target = parseDatabaseUrl(url);
    const configs: Record<Warehouse, (t: typeof target, e: typeof env) => any> = {
      postgres: postgresConfig,
      bigquery: bigqueryConfig,
      snowflake: snowflakeConfig,
      clickhouse: clickhouseConfig,
      trino: trinoConfig,
      databricks: databricksConfig,
    };
    return configs[target.warehouse](target, env);
  };

  it("names the warehouse by the scheme and refuses others, listing the forms", () => {
    expect(parseDatabaseUrl("postgres://h/db").warehouse).toBe("postgres");
    expect(parseDatabaseUrl("postgresql://h/db").warehouse).toBe("postgres");
    expect(parseDatabaseUrl("bigquery://p/d").warehouse).toBe("bigquery");
    expect(parseDatabaseUrl("SNOWFLAKE://a/d/s").warehouse).toBe("snowflake");
    expect(parseDatabaseUrl("clickhouse+https://h/db").warehouse).toBe("clickhouse");
    expect(parseDatabaseUrl("trino://h:8080/c/s").warehouse).toBe("trino");
    expect(parseDatabaseUrl("databricks://h/sql/1.0/warehouses/x").warehouse).toBe("databricks");
    expect(() => parseDatabaseUrl("mysql://me:pw@h/db")).toThrow(
      /^`url` mysql:…: give a URL of one of postgresql:\/\/user@host:5432\/db, bigquery:\/\/project\/dataset\?location=EU, snowflake:\/\/account\/database\/schema\?warehouse=WH&role=R, clickhouse:\/\/host:8123\/db/,
    );
    expect(() => parseDatabaseUrl("just-a-name")).toThrow(/^`url` just-a-name: give a URL/);
  });

  it("BigQuery: project and dataset from the URL, location as a parameter; no credentials in it", async () => {
    expect((await config("bigquery://my-project/evals?location=EU")).config).toEqual({
      projectId: "my-project",
      dataset: "evals",
      location: "EU",
    });
    expect((await config("bigquery://my-project")).config).toEqual({
      projectId: "my-project",
      dataset: null,
      location: null,
    });
    await expect(config("bigquery://me:pw@my-project/evals")).rejects.toThrow(
      /^`url` bigquery:\/\/me:\*\*\*@my-project\/evals: write bigquery:\/\/PROJECT\/DATASET \(credentials come from GOOGLE_APPLICATION_CREDENTIALS or gcloud, not the URL\)$/,
    );
    await expect(config("bigquery://p/a/b")).rejects.toThrow(/write bigquery:\/\/PROJECT\/DATASET/);
  });

  it("Snowflake: account/database/schema, warehouse and role; user and password from SNOWFLAKE_*", async () => {
    const env = {
      SNOWFLAKE_USER: "ana",
      SNOWFLAKE_PASSWORD: "pässword",
      SNOWFLAKE_ROLE: "ANALYST",
    };
    const c = await config("snowflake://MyOrg-Acct1/EVALS/PUBLIC?warehouse=XS_WH", env);
    expect(c.config).toEqual({
      account: "MyOrg-Acct1",
      username: "ana",
      password: "pässword",
      database: "EVALS",
      schema: "PUBLIC",
      warehouse: "XS_WH",
      role: "ANALYST",
    });
    expect(c.secrets).toContain("pässword");
    // The URL's own user and password win; key-pair login from the key file's variable.
    const url = await config("snowflake://bob:s%C3%A9cret@acct/DB", env);
    expect(url.config).toMatchObject({ username: "bob", password: "sécret", database: "DB" });
    expect(url.secrets).toContain("sécret");
    const jwt = await config("snowflake://acct/DB/S", {
      SNOWFLAKE_USER: "svc",
      SNOWFLAKE_PRIVATE_KEY_FILE: "/keys/rsa.p8",
      SNOWFLAKE_PRIVATE_KEY_PASSPHRASE: "k3y",
    });
    expect(jwt.config).toMatchObject({
      authenticator: "SNOWFLAKE_JWT",
      privateKeyPath: "/keys/rsa.p8",
      privateKeyPass: "k3y",
    });
    expect(jwt.secrets).toContain("k3y");
  });

  it("ClickHouse: the HTTP interface (8123, or 8443 over TLS) and database; CLICKHOUSE_USER/PASSWORD", async () => {
    expect(
      (await config("clickhouse://ch.internal/evals", { CLICKHOUSE_PASSWORD: "pw1" })).config,
    ).toEqual({ url: "http://ch.internal:8123", password: "pw1", database: "evals" });
    const tls = await config("clickhouse+https://me:p%40ss@ch.cloud:9440/db", {
      CLICKHOUSE_USER: "other",
    });
    expect(tls.config).toEqual({
      url: "https://ch.cloud:9440",
      username: "me",
      password: "p@ss",
      database: "db",
    });
    expect(tls.secrets).toEqual(["p@ss"]);
    expect((await config("clickhouse+https://ch.cloud")).config.url).toBe("https://ch.cloud:8443");
  });

  it("Trino: server, catalog and schema; TRINO_USER/TRINO_PASSWORD", async () => {
    expect((await config("trino://trino.internal/hive/web", { TRINO_USER: "ana" })).config).toEqual(
      {
        server: "http://trino.internal:8080",
        user: "ana",
        catalog: "hive",
        schema: "web",
      },
    );
    const tls = await config("trino+https://bob@trino.example.com/iceberg", {
      TRINO_PASSWORD: "tr1no",
    });
    expect(tls.config).toEqual({
      server: "https://trino.example.com:443",
      user: "bob",
      password: "tr1no",
      catalog: "iceberg",
    });
    expect(tls.secrets).toEqual(["tr1no"]);
  });

  it("Databricks: host and HTTP path, catalog and schema; the token from DATABRICKS_TOKEN or required", async () => {
    const c = await config(
      "databricks://adb-1.azuredatabricks.net/sql/1.0/warehouses/abc123?catalog=main&schema=evals",
      { DATABRICKS_TOKEN: "dapiXYZ" },
    );
    expect(c.config).toEqual({
      host: "adb-1.azuredatabricks.net",
      path: "/sql/1.0/warehouses/abc123",
      token: "dapiXYZ",
      catalog: "main",
      schema: "evals",
    });
    expect(c.secrets).toEqual(["dapiXYZ"]);
    expect(
      (await config("databricks://token:t0k@dbx.internal:8443/sql/protocolv1/o/1/abc")).config,
    ).toEqual({
      host: "dbx.internal",
      port: 8443,
      path: "/sql/protocolv1/o/1/abc",
      token: "t0k",
    });
    await expect(
      config("databricks://adb-1.azuredatabricks.net/sql/1.0/warehouses/x"),
    ).rejects.toThrow(/set DATABRICKS_TOKEN to a personal access token \(it is never shown\)$/);
    await expect(
      config("databricks://adb-1.azuredatabricks.net", { DATABRICKS_TOKEN: "t" }),
    ).rejects.toThrow(/write databricks:\/\/HOST\/sql\/1\.0\/warehouses\/ID/);
  });

  it("PostgreSQL: the URL as pg reads it, its password a secret", () => {
    expect(access("postgresql://me:p%C3%A4ss@h:5/db").secrets).toEqual(["päss"]);
  });

  it("a client's message loses every secret and keeps one line", () => {
    const error = new Error(
      "Incorrect username or password was specified (password 's3cr3t').\n    at Foo (x.js:1)",
    );
    expect(scrubbed(error, ["s3cr3t", ""])).toBe(
      "Incorrect username or password was specified (password '***').",
    );
  });
});

/** The bundled example as a DuckDB table, typed as DuckDB reads the CSV. */
async function exampleTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(EXAMPLE)})`);
  // Two queries of bm25 without tfidf, one of tfidf without bm25.
  await connection.run(`CREATE TABLE gaps AS SELECT * FROM results WHERE ${GAPS_WHERE}`);
}

describe("the statements each warehouse is sent, run on DuckDB (its names as macros and types)", () => {
  for (const w of Object.keys(WAREHOUSES) as Warehouse[]) {
    it(`${WAREHOUSES[w].label}: the column query, the systems query, the paired statement with --intersect and its dropped counts`, async () => {
      const d = dialect(WAREHOUSES[w].dialect);
      const pairs = [["bm25", "tfidf"]] as const;
      const file = await readPairedResults({
        inputs: [{ path: EXAMPLE, displayName: "example" }],
        system: "system",
        query: "query_id",
        metrics: ["hit5"],
        pairs: () => pairs,
      });
      await withDuckDb(async (c) => {
        await exampleTable(c);
        const adapt = await dialectOnDuckDb(c, WAREHOUSES[w].dialect);
        const from = sourceFromSql(d, { table: "results" });
        const columns = await c.runAndReadAll(adapt(sourceColumnsSql(from)));
        expect(columns.columnNames()).toContain("doc_id");
        const systems = await queryRows(
          c,
          adapt(systemsFoundSql(d, { table: "results" }, "system")),
        );
        expect(systems.map((r) => r.system).sort()).toEqual(["bm25", "tfidf"]);
        const spec = GAPS_PAIRED_SPEC;
        await expect(queryRows(c, adapt(perDocumentSql(d, spec)))).rejects.toThrow(
          /ragci: 3 queries have a result for some of the systems \(bm25, tfidf\) but not all/,
        );
        const rows = await queryRows(c, adapt(perDocumentSql(d, { ...spec, intersect: true })));
        const dropped = await queryRows(
          c,
          adapt(droppedQueriesSql(d, { ...spec, intersect: true })),
        );
        expect(dropped.map((r) => [Number(r.dropped0), Number(r.dropped1)])).toEqual([[1, 2]]);
        // 1,377 − 3 queries paired; the complete example's pairing gives 1,380.
        const n = (system: string) =>
          rows.filter((r) => r.system === system).reduce((t, r) => t + Number(r.n), 0);
        expect(n("bm25")).toBe(file.queries - 3);
        expect(n("tfidf - bm25")).toBe(file.queries - 3);
      });
    });
  }
});
