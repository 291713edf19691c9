// The command-line entry as a bundle (dist/bundle/), built after tsc by `npm run build`.
//
// Why: a run of `ragci analyze` loaded about 600 files before DuckDB could start its scan:
// 115 of ragci's own modules, commander, @duckdb/node-api's 60 and @stdlib's 430 (the t and
// normal quantiles), about 0.2 s of a 0.9 s run on the 10⁷-row CSV. In a few chunks they
// load in a fraction of that (docs/performance.md). The library (package.json "exports")
// stays tsc's dist/, module for module; only package.json "bin" points here.
//
// - Commands, HTML pages and the census study stay separate chunks, loaded by the same
//   dynamic imports as in dist/, so `--help` or `analyze` load no more than before.
// - Every module keeps its side effects (rolldown would otherwise trust package.json's
//   "sideEffects": false, which is true of the library but not of the CLI's entry files).
// - The study worker is its own entry, next to the chunks: studyWorkers.ts finds it as
//   ./studyWorker.js beside itself, in dist/simulation/ and here alike; the entry sits two
//   levels below the package like dist/cli/, so main.ts's ../../package.json is the same file.
// - @duckdb/node-api is bundled into a CommonJS file of its own, loaded on first use (see
//   duckDbLazyRequire); the native bindings, pg and the optional warehouse clients stay in
//   node_modules.
//   node scripts/bundle.mjs
import { chmodSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const OUT = path.join(DIST, "bundle");

const external = [
  /^node:/,
  /^@duckdb\/node-bindings/,
  /^pg($|\/)/,
  /^pg-native$/,
  // sql.js loads its WebAssembly file from beside its own script.
  /^sql\.js($|\/)/,
  ...Object.keys(
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).peerDependencies ?? {},
  ).map((name) => new RegExp(`^${name.replace(/[/.]/g, "\\$&")}($|/)`)),
];

/** DuckDB's client, bundled into one CommonJS file beside the chunks (built first, below). */
const DUCKDB_CLIENT = "duckdbClient.cjs";

/**
 * duckDbModules.js loads DuckDB's client with a `require` made by createRequire, on first use.
 * In the bundle that require reads DUCKDB_CLIENT instead of @duckdb/node-api's 60 files: one
 * file, which a run that never starts DuckDB (a small CSV, readSmallResults.ts) never compiles.
 */
const duckDbLazyRequire = {
  name: "duckdb-lazy-require",
  transform(code, id) {
    if (!id.endsWith(path.join("dist", "ingest", "duckDbModules.js"))) return null;
    const call = 'require("@duckdb/node-api")';
    if (!code.includes(call)) throw new Error(`${id}: expected ${call}; update scripts/bundle.mjs`);
    return code.replace(call, `require("./${DUCKDB_CLIENT}")`);
  },
};

const started = performance.now();
await build({
  input: { duckdbClient: createRequire(import.meta.url).resolve("@duckdb/node-api") },
  platform: "node",
  external,
  logLevel: "warn",
  output: { dir: OUT, format: "cjs", entryFileNames: DUCKDB_CLIENT, cleanDir: true },
});
await build({
  input: {
    ragci: path.join(DIST, "cli", "bin.js"),
    studyWorker: path.join(DIST, "simulation", "studyWorker.js"),
  },
  platform: "node",
  external,
  treeshake: { moduleSideEffects: [{ test: /.*/, sideEffects: true }] },
  plugins: [duckDbLazyRequire],
  logLevel: "warn",
  output: {
    dir: OUT,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
  },
});
// Run directly as package.json "bin" (npm sets the mode only when it installs the package).
chmodSync(path.join(OUT, "ragci.js"), 0o755);
console.log(
  `bundled dist/cli/bin.js into ${path.relative(ROOT, OUT)}/ in ${((performance.now() - started) / 1000).toFixed(2)} s`,
);
