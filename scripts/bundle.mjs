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
// - @stdlib's three distribution functions are bundled into a CommonJS file of their own, loaded
//   with V8's code cache (stdlibCodeCached; src/cli/codeCachedRequire.ts), which
//   scripts/write-code-caches.mjs writes after calls like the commands'.
//   node scripts/bundle.mjs
import { spawnSync } from "node:child_process";
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

/** @stdlib's distribution functions, bundled into one CommonJS file beside the chunks. */
const STDLIB = "stdlibDistributions.cjs";
/** The modules of dist/ that import them, and what they import (default imports, by name). */
const STDLIB_IMPORTERS = {
  [path.join("core", "numeric", "distributions.js")]: {
    normalQuantileStdlib: "@stdlib/stats-base-dists-normal-quantile",
    tCdf: "@stdlib/stats-base-dists-t-cdf",
    tQuantileStdlib: "@stdlib/stats-base-dists-t-quantile",
  },
  [path.join("core", "numeric", "chiSquareQuantile.js")]: {
    chiSquareQuantileStdlib: "@stdlib/stats-base-dists-chisquare-quantile",
  },
};
const STDLIB_FUNCTIONS = Object.assign({}, ...Object.values(STDLIB_IMPORTERS));

/** The entry of STDLIB: module.exports = { normalQuantileStdlib, tCdf, … }. */
const stdlibEntry = {
  name: "stdlib-entry",
  resolveId: (id) => (id === "stdlib-entry" ? id : null),
  load: (id) =>
    id === "stdlib-entry"
      ? `module.exports = { ${Object.entries(STDLIB_FUNCTIONS)
          .map(([name, pkg]) => `${name}: require(${JSON.stringify(pkg)})`)
          .join(", ")} };`
      : null,
};

/**
 * The modules of STDLIB_IMPORTERS import the functions by name; in the bundle those imports
 * become one requireCodeCached of STDLIB (beside the chunks; loaded once, as `require` would),
 * so that no chunk holds @stdlib and its parsing is read from the code cache.
 */
const stdlibCodeCached = {
  name: "stdlib-code-cached",
  transform(code, id) {
    const importer = Object.keys(STDLIB_IMPORTERS).find((file) =>
      id.endsWith(path.join("dist", file)),
    );
    if (importer === undefined) return null;
    let out = code;
    for (const [name, pkg] of Object.entries(STDLIB_IMPORTERS[importer])) {
      const line = `import ${name} from "${pkg}";`;
      if (!out.includes(line)) throw new Error(`${id}: expected ${line}; update scripts/bundle.mjs`);
      out = out.replace(line, "");
    }
    return [
      `import { stdlibDistributions } from "${path.relative(path.dirname(id), path.join(DIST, "cli", "stdlibDistributions.js"))}";`,
      `const { ${Object.keys(STDLIB_IMPORTERS[importer]).join(", ")} } = stdlibDistributions();`,
      out,
    ].join("\n");
  },
};

/**
 * In ragci.cjs, the warehouse client's `import(client)` (databaseConnection.js) becomes
 * `importModule(client)`, the import() codeCachedRequire.ts passes to the file's wrapper: a
 * script run from a code cache cannot import() itself.
 */
const importThroughWrapper = {
  name: "import-through-wrapper",
  transform(code, id) {
    if (!id.endsWith(path.join("dist", "ingest", "sql", "databaseConnection.js"))) return null;
    const call = "await import(client)";
    if (!code.includes(call)) throw new Error(`${id}: expected ${call}; update scripts/bundle.mjs`);
    return code.replace(call, "await importModule(client)");
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
  input: { stdlib: "stdlib-entry" },
  platform: "node",
  plugins: [stdlibEntry],
  logLevel: "warn",
  output: { dir: OUT, format: "cjs", entryFileNames: STDLIB },
});
await build({
  input: {
    ragci: path.join(DIST, "cli", "bin.js"),
    studyWorker: path.join(DIST, "simulation", "studyWorker.js"),
  },
  platform: "node",
  external,
  treeshake: { moduleSideEffects: [{ test: /.*/, sideEffects: true }] },
  plugins: [duckDbLazyRequire, stdlibCodeCached],
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

// The command line as one CommonJS file (ragci.cjs, from commonJsEntry.ts), which bin.ts runs
// instead of the chunks above when its code cache is this Node's (commonJsCli.ts): the chunks'
// modules in one file, so that with the cache no source is parsed. DuckDB's client stays a file
// of its own; @stdlib is inside (its functions are in the file's cache).
await build({
  input: { ragci: path.join(DIST, "cli", "commonJsEntry.js") },
  platform: "node",
  external,
  treeshake: { moduleSideEffects: [{ test: /.*/, sideEffects: true }] },
  plugins: [duckDbLazyRequire, importThroughWrapper],
  logLevel: "warn",
  output: { dir: OUT, format: "cjs", entryFileNames: "[name].cjs", codeSplitting: false },
});
// A cached script loses its import() (codeCachedRequire.ts): none may be left in ragci.cjs.
for (const [n, line] of readFileSync(path.join(OUT, "ragci.cjs"), "utf8").split("\n").entries())
  if (/\bimport\(/.test(line) && !/^\s*(\*|\/\/)/.test(line))
    throw new Error(`ragci.cjs:${n + 1} calls import(): route it through importModule`);

// Their code caches, in a plain `node` of their own (scripts/write-code-caches.mjs).
const caches = spawnSync(process.execPath, [path.join(ROOT, "scripts", "write-code-caches.mjs")], {
  encoding: "utf8",
  cwd: ROOT,
});
if (caches.status !== 0) throw new Error(`writing the code caches: ${caches.stderr}`);
console.log(
  `bundled dist/cli/bin.js into ${path.relative(ROOT, OUT)}/ in ${((performance.now() - started) / 1000).toFixed(2)} s`,
);
