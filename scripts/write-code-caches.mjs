// Writes the code caches of dist/bundle's CommonJS files (src/cli/codeCachedRequire.ts) after
// calling what the commands call; run by scripts/bundle.mjs in a process of its own, as
// `node scripts/write-code-caches.mjs`, so that its V8 flags are those of a plain `node` run of
// the command (with the same NODE_OPTIONS), which the caches record and V8 checks.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeCodeCache } from "../dist/cli/writeCodeCache.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "dist", "bundle");

// @stdlib's functions, as the commands call them: t and χ² quantiles at whole and fractional ν,
// small and large, both tails, t p-values, normal quantiles.
await writeCodeCache(path.join(OUT, "stdlibDistributions.cjs"), (m) => {
  for (const df of [1, 2, 3.5, 4, 9, 19, 37.76, 97, 1e3, 1e6])
    for (const p of [1e-9, 0.005, 0.025, 0.05, 0.1, 0.5, 0.9, 0.95, 0.975, 0.995]) {
      m.tQuantileStdlib(p, df);
      m.tCdf(-Math.abs(m.tQuantileStdlib(p, df)) - 0.3, df);
      m.chiSquareQuantileStdlib(p, df);
    }
  for (const p of [1e-12, 0.005, 0.025, 0.5, 0.975, 0.995]) m.normalQuantileStdlib(p, 0, 1);
});

// The one-file command line, after the README's commands on the bundled example (their output
// discarded): analyze with a 0/1 and a graded metric, compare, plan, and a command's help.
const example = path.join(ROOT, "examples", "covidqa-retrieval.csv");
await writeCodeCache(path.join(OUT, "ragci.cjs"), async (m) => {
  const write = process.stdout.write;
  process.stdout.write = () => true;
  for (const args of [
    ["analyze", example, "--doc", "doc_id", "--metric", "hit5,rr", "--system", "system"],
    ["compare", example, "--doc", "doc_id", "--metric", "hit5", "--system", "system"],
    ["plan", example, "--metric", "hit5", "--system", "system=bm25", "--half-width", "0.03"],
    ["analyze", "--help"],
  ]) {
    await m.start(args);
    if (process.exitCode !== 0) throw new Error(`ragci ${args.join(" ")}: exit ${process.exitCode}`);
  }
  process.stdout.write = write;
});
