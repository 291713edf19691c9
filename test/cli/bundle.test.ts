import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, EXAMPLE, ROOT, ragci, ragciOk, scratchDir } from "./runCli.js";

// package.json "bin" is the bundle scripts/bundle.mjs makes of tsc's dist/cli/bin.js. The other
// CLI tests run through it; these check that it is the entry npm installs, that it says the same
// as tsc's modules byte for byte, and that it holds what makes it start fast.

const BUNDLE = join(ROOT, "dist/bundle");
const UNBUNDLED = join(ROOT, "dist/cli/main.js");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const CENSUS = join(ROOT, "examples/synthetic-census.csv");

function unbundled(args: readonly string[]): string {
  const run = spawnSync(process.execPath, [UNBUNDLED, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

/**
 * How a plain `node` (no options: the test's own process has vitest's, and a cache records the
 * options V8's flags come from) loads `file` with its code cache, and `expression` of it (m).
 */
function cacheUse(file: string, expression: string): { cache: string; value: unknown } {
  const script = join(scratchDir(), "cacheUse.mjs");
  writeFileSync(
    script,
    `import { requireCodeCached } from ${JSON.stringify(join(ROOT, "dist/cli/codeCachedRequire.js"))};
const m = requireCodeCached(${JSON.stringify(file)});
console.log(JSON.stringify({ cache: m.cache, value: ${expression} }));`,
  );
  const run = spawnSync(process.execPath, [script], {
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
}

describe("the bundled command-line entry", () => {
  it("is package.json's bin, executable, with a shebang, and knows the package's version", () => {
    expect(join(ROOT, pkg.bin.ragci)).toBe(CLI);
    accessSync(CLI, constants.X_OK);
    expect(readFileSync(CLI, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    // main.ts reads ../../package.json beside itself: the bundle sits as deep as dist/cli/.
    expect(ragciOk(["--version"]).trim()).toBe(pkg.version);
  });

  it.each([
    ["analyze, two systems", ["analyze", EXAMPLE, "--metric", "hit5", "--system", "system"]],
    [
      "analyze --json with the bootstrap",
      ["analyze", EXAMPLE, "--metric", "hit5,rr", "--system", "system=bm25", "--json"],
    ],
    ["compare --json", ["compare", EXAMPLE, "--metric", "hit5", "--system", "system", "--json"]],
    [
      "plan",
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system=bm25", "--half-width", "0.03"],
    ],
    [
      "simulate on two threads (the study worker is its own entry)",
      ["simulate", CENSUS, "--aggregated", "--k", "10", "--reps", "200", "--replicates", "99"],
    ],
  ])(
    "says what tsc's modules say: %s",
    (_, args) => {
      const threads = args[0] === "simulate" ? ["--workers", "2"] : [];
      expect(ragciOk([...args, ...threads])).toBe(unbundled([...args, ...threads]));
    },
    120_000,
  );

  it("hashes a large input it starts early (bin.ts) to the digest and report tsc's modules give", () => {
    // 18 MiB, beyond sha256File's 16 MiB: the bin entry starts its SHA-256 before main.js loads.
    const file = join(scratchDir(), "large.csv");
    const rows = ["doc_id,query_id,system,hit"];
    for (let q = 0; q < 380_000; q++) {
      const doc = `d${String(q % 997).padStart(4, "0")}`;
      for (const system of ["bm25", "tfidf"])
        rows.push(
          `${doc},q${String(q).padStart(7, "0")},${system},${(q * 7 + system.length) % 3 === 0 ? 1 : 0}`,
        );
    }
    writeFileSync(file, `${rows.join("\n")}\n`);
    expect(statSync(file).size).toBeGreaterThan(16 * 2 ** 20);
    const digest = createHash("sha256").update(readFileSync(file)).digest("hex");
    for (const command of ["analyze", "compare"]) {
      const args = [
        command,
        file,
        "--metric",
        "hit",
        "--system",
        "system",
        "--replicates",
        "0",
        "--json",
      ];
      const bundled = ragciOk(args);
      expect(bundled).toBe(unbundled(args));
      expect(JSON.parse(bundled).inputs[0].sha256).toBe(digest);
    }
  }, 120_000);

  it("writes the same HTML report (Observable Plot and linkedom bundled)", () => {
    // The same file name in two directories: the page names its file and its aggregates.
    const [one, two] = [scratchDir(), scratchDir()];
    const args = (dir: string) => [
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--html",
      join(dir, "report.html"),
    ];
    ragciOk(args(one));
    unbundled(args(two));
    const page = readFileSync(join(one, "report.html"), "utf8");
    expect(page).toBe(readFileSync(join(two, "report.html"), "utf8"));
    expect(page).toContain("<svg");
  }, 60_000);

  it("holds @stdlib and DuckDB's client instead of loading their ~500 files from node_modules", () => {
    const chunks = readdirSync(BUNDLE)
      .filter((f) => !f.endsWith(".v8cache"))
      .map((f) => readFileSync(join(BUNDLE, f), "utf8"));
    const all = chunks.join("\n");
    expect(all).not.toMatch(/from "@stdlib\//);
    expect(all).not.toMatch(/require\("@stdlib\//);
    expect(all).not.toMatch(/require\("@duckdb\/node-api"\)/);
    // the native bindings and the database clients stay outside
    expect(all).toMatch(/require\("@duckdb\/node-bindings"\)/);
  });

  it("keeps DuckDB's client in a file of its own, which only a run that starts DuckDB loads", () => {
    const client = readFileSync(join(BUNDLE, "duckdbClient.cjs"), "utf8");
    expect(client).toContain("node_modules/@duckdb/node-api/lib/");
    for (const chunk of readdirSync(BUNDLE).filter((f) => f.endsWith(".js")))
      expect([
        chunk,
        readFileSync(join(BUNDLE, chunk), "utf8").includes("@duckdb/node-api/lib/"),
      ]).toEqual([chunk, false]);
    // and a run that reads through DuckDB finds it (the bundle's own require, beside the
    // chunks): the example with a quoted header name, which the small-CSV reader leaves to DuckDB
    const quoted = join(scratchDir(), "quoted.csv");
    writeFileSync(quoted, readFileSync(EXAMPLE, "utf8").replace("doc_id,", '"doc_id",'));
    const args = ["analyze", quoted, "--metric", "hit5", "--system", "system=bm25"];
    expect(ragciOk([...args, "--replicates", "0"])).toContain("98 documents");
  });

  it("keeps @stdlib in a CommonJS file of its own, read with a code cache this Node accepts", async () => {
    const file = join(BUNDLE, "stdlibDistributions.cjs");
    expect(readFileSync(file, "utf8")).toContain(
      "node_modules/@stdlib/stats-base-dists-t-quantile/",
    );
    for (const chunk of readdirSync(BUNDLE).filter((f) => f.endsWith(".js")))
      expect([
        chunk,
        readFileSync(join(BUNDLE, chunk), "utf8").includes("node_modules/@stdlib/"),
      ]).toEqual([chunk, false]);
    // npm run build wrote the cache with this node; no temporary file is left beside it
    expect(cacheUse(file, "m.exports.tQuantileStdlib(0.975, 19)")).toEqual({
      cache: "accepted",
      value: 2.0930240544083096,
    });
    const { tQuantile } = await import(join(ROOT, "dist/core/numeric/distributions.js"));
    expect(tQuantile(0.975, 19)).toBe(2.0930240544083096);
    expect(readdirSync(BUNDLE).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("runs ragci.cjs from its code cache, or the ES module chunks under NODE_DISABLE_COMPILE_CACHE, alike", async () => {
    // the build's cache of the one-file command line is intact and this node's
    expect(cacheUse(join(BUNDLE, "ragci.cjs"), "typeof m.exports.start")).toEqual({
      cache: "accepted",
      value: "function",
    });
    // a probe, preloaded, notes every file compiled through vm.Script (how the cache is read)
    const dir = scratchDir();
    const probe = join(dir, "probe.cjs");
    writeFileSync(
      probe,
      `const vm = require("node:vm"), fs = require("node:fs");
const Script = vm.Script, seen = [];
vm.Script = function (source, options) { seen.push(options && options.filename); return new Script(source, options); };
process.on("exit", () => fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify(seen)));`,
    );
    const args = ["analyze", EXAMPLE, "--metric", "hit5,rr", "--system", "system=bm25", "--json"];
    const run = (disabled: boolean) => {
      const out = join(dir, `seen-${disabled}.json`);
      const result = ragci(args, {
        env: {
          NODE_OPTIONS: `--require ${probe}`,
          PROBE_OUT: out,
          NODE_DISABLE_COMPILE_CACHE: disabled ? "1" : undefined,
        },
      });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      return { stdout: result.stdout, compiled: JSON.parse(readFileSync(out, "utf8")) as string[] };
    };
    const cached = run(false);
    const chunks = run(true);
    expect(cached.compiled).toContain(join(BUNDLE, "ragci.cjs"));
    // the chunks read @stdlib from its own cached file, and never the one-file command line
    expect(chunks.compiled).toEqual([join(BUNDLE, "stdlibDistributions.cjs")]);
    expect(cached.stdout).toBe(chunks.stdout);
    expect(cached.stdout).toBe(unbundled(args));
  }, 60_000);
});
