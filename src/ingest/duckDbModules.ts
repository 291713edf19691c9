import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * DuckDB's client (CommonJS), loaded on first use. Through `require` rather than `import()`:
 * an ESM import of a CommonJS package makes Node parse every re-exported file for its export
 * names, about 70 ms for @duckdb/node-api's 60 modules.
 */
export function duckDbApi(): typeof import("@duckdb/node-api") {
  return require("@duckdb/node-api");
}

/** DuckDB's C API (the vectors of a result), loaded on first use. */
export function duckDbBindings(): typeof import("@duckdb/node-bindings") {
  return require("@duckdb/node-bindings");
}
