import { defineConfig } from "vitest/config";

/**
 * The tests in five projects, by what they start (docs/testing.md):
 *
 * - unit: src's modules in-process, DuckDB in memory, no other program; the inner loop
 *   (`npm run test:unit`).
 * - oracle: replays against live numpy and R (python3, Rscript) and the WebAssembly kernels
 *   against their JavaScript twins.
 * - cli: the built command (dist/bundle) and tsc's dist/ as a user runs them, and the docs'
 *   library examples type-checked.
 * - browser: the HTML report in chromium (playwright-core).
 * - database: throwaway PostgreSQL and ClickHouse servers, and DuckDB spilling to disk.
 *
 * `npm test` runs all five. The projects that run dist/ rebuild it first when a file it is built
 * from is newer (test/support/buildWhenStale.ts), so `vitest run --project cli` never tests an old
 * build.
 */
const ORACLE = [
  "test/r-crosscheck/**/*.test.ts",
  "test/core/variance/cv3.test.ts",
  "test/core/intervals/fpcEveryInterval.test.ts",
  "test/core/simulation/twoStageSample.test.ts",
  "test/core/numeric/pcg64.test.ts",
  "test/core/numeric/boundedIntegers.test.ts",
  "test/core/numeric/seedSequence.test.ts",
  "test/core/bootstrap/documentBootstrap.test.ts",
  "test/core/bootstrap/documentBootstrapKernel.test.ts",
  "test/core/bootstrap/chunkBootstrapKernel.test.ts",
  "test/core/numeric/pcg64Kernel.test.ts",
  "test/core/numeric/tailKernel.test.ts",
  // lme4 and lmerTest fitted live (Rscript)
  "test/core/facets/*.lme4.test.ts",
];
const BROWSER = ["test/cli/html.test.ts"];
const DATABASE = [
  "test/cli/fromPostgres*.test.ts",
  "test/cli/sql.test.ts",
  "test/ingest/sql/readDatabasePairs.test.ts",
  "test/ingest/sql/clickhouseServer.test.ts",
  "test/ingest/sql/facetCellsServers.test.ts",
  // The warehouses' optional clients: mocks node:module, which the unit project's shared module
  // graph (isolate: false) would carry into other files.
  "test/ingest/sql/warehouses.test.ts",
  // DuckDB spilling a GROUP BY of 6·10⁶ rows to disk under a 64 MiB limit (≈ 10 s of a core).
  "test/ingest/duckdbSettings.test.ts",
];
// Tests outside test/cli that run dist/ (tsc's modules or the bundle), or type-check the docs'
// examples against the package as a user imports it (a whole tsc program, ≈ 10 s each).
const CLI_ELSEWHERE = [
  "test/docs/commonjs.test.ts",
  "test/docs/readmeExample.test.ts",
  "test/docs/libraryApi.test.ts",
  "test/ingest/sha256File.test.ts",
  "test/ingest/queryIdCheckCli.test.ts",
];
const BUILD = "test/support/buildWhenStale.ts";

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // One module graph per worker instead of one per file: half the CPU time (26 s instead
          // of 52 s here). Unit tests keep no state in modules; vi.spyOn's are restored.
          isolate: false,
          include: ["test/**/*.test.ts"],
          exclude: ["test/cli/**", ...ORACLE, ...CLI_ELSEWHERE, ...DATABASE, ...BROWSER],
        },
      },
      { extends: true, test: { name: "oracle", include: ORACLE, globalSetup: [BUILD] } },
      {
        extends: true,
        test: {
          name: "cli",
          include: ["test/cli/**/*.test.ts", ...CLI_ELSEWHERE],
          exclude: [...DATABASE, ...BROWSER],
          globalSetup: [BUILD],
        },
      },
      { extends: true, test: { name: "browser", include: BROWSER, globalSetup: [BUILD] } },
      { extends: true, test: { name: "database", include: DATABASE, globalSetup: [BUILD] } },
    ],
  },
});
