// Start-up: a 20-document `ragci analyze` of the bundled example against `node -e 0`, run in
// turns in this one script so that both see the same machine, with the ratio of the two; and
// `ragci compare` of the example's two systems on the same documents.
//   node bench/startup.mjs [runs]   (after npm run build; default 30 runs of each)
//   node bench/startup.mjs [runs] --as-installed
// The second form runs every command (`node -e 0` too) under NODE_OPTIONS that the build's code
// caches were not written under (--no-deprecation: Node's option, not V8's, so that the runs
// differ from the first form's in the caches they read and in nothing else), as for a package
// built under another Node, with a fresh user cache directory (src/cli/userCodeCache.ts): the
// first run of each command writes its cache there (timed apart), the others read it;
// "analyze-chunks" is the same analyze under NODE_DISABLE_COMPILE_CACHE, the ES module chunks
// that such an install ran before.
//
// Wall times are the median and the minimum of the runs; on a shared machine the minimum is
// the closest to the program's own cost. CPU time (user + system, every thread's) comes from
// /proc/self/stat's children's times after each run is reaped (Linux; 10 ms ticks, averaged).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 30);
const asInstalled = process.argv.includes("--as-installed");

// The first 20 documents (by id) of the example's BM25 rows.
const lines = readFileSync(join(ROOT, "examples/covidqa-retrieval.csv"), "utf8").trim().split("\n");
const header = lines[0];
const rows = lines.slice(1).filter((l) => l.split(",")[2] === "bm25");
const docs = new Set([...new Set(rows.map((l) => l.split(",")[0]))].sort().slice(0, 20));
const dir = mkdtempSync(join(tmpdir(), "ragci-startup-"));
const file = join(dir, "twenty-documents.csv");
writeFileSync(file, `${[header, ...rows.filter((l) => docs.has(l.split(",")[0]))].join("\n")}\n`);
// The same documents' rows of both systems, for compare.
const both = join(dir, "twenty-documents-two-systems.csv");
const paired = lines.slice(1).filter((l) => docs.has(l.split(",")[0]));
writeFileSync(both, `${[header, ...paired].join("\n")}\n`);

const commands = {
  node: [process.execPath, ["-e", "0"]],
  analyze: [
    process.execPath,
    [join(ROOT, "dist/bundle/ragci.js"), "analyze", file, "--doc", "doc_id", "--metric", "hit5"],
  ],
  // The same without the resampling methods: loading, reading and the closed-form intervals.
  "B=0": [
    process.execPath,
    [
      join(ROOT, "dist/bundle/ragci.js"),
      "analyze",
      file,
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--replicates",
      "0",
    ],
  ],
  // compare of the two systems on those documents (paired on query_id).
  compare: [
    process.execPath,
    [
      join(ROOT, "dist/bundle/ragci.js"),
      "compare",
      both,
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system",
    ],
  ],
};

if (asInstalled) commands["analyze-chunks"] = commands.analyze;
// A fresh cache directory, inside the bench's own temporary one (ragci makes it, mode 0700).
const userCache = join(dir, "user-cache");
/** The children's environment: the bench's own, or (--as-installed) another runtime's. */
function envOf(name) {
  if (!asInstalled) return process.env;
  const env = {
    ...process.env,
    NODE_OPTIONS: "--no-deprecation",
    XDG_CACHE_HOME: userCache,
  };
  if (name === "analyze-chunks") env.NODE_DISABLE_COMPILE_CACHE = "1";
  return env;
}
const firstRun = {};

function childTicks() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return Number(fields[13]) + Number(fields[14]); // cutime + cstime (fields 16 and 17)
}

const wall = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
const cpu = Object.fromEntries(Object.keys(commands).map((name) => [name, 0]));
for (let i = 0; i < runs + 2; i++) {
  for (const [name, [cmd, args]] of Object.entries(commands)) {
    const ticks = childTicks();
    const start = performance.now();
    const result = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"], env: envOf(name) });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`);
    if (i === 0) firstRun[name] = ms;
    if (i < 2) continue; // warm-up
    wall[name].push(ms);
    cpu[name] += childTicks() - ticks;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);
const tick = 1000 / 100; // ms per clock tick (USER_HZ is 100 on Linux)
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `${runs} runs each, load average ${load}${asInstalled ? "; as installed from a package built under another Node" : ""}`,
);
if (asInstalled)
  console.log(
    `first runs (writing the user's caches): ${Object.entries(firstRun)
      .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
      .join(", ")}`,
  );
for (const name of Object.keys(commands))
  console.log(
    `${name.padEnd(8)} wall median ${median(wall[name]).toFixed(0)} ms, min ${min(wall[name]).toFixed(0)} ms; CPU ${((cpu[name] * tick) / runs).toFixed(0)} ms`,
  );
for (const name of Object.keys(commands).slice(1))
  console.log(
    `${name} / node: wall median ${(median(wall[name]) / median(wall.node)).toFixed(2)}, min ${(min(wall[name]) / min(wall.node)).toFixed(2)}; CPU ${(cpu[name] / cpu.node).toFixed(2)}`,
  );
