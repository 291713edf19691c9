// Timings of ragci against reference implementations, in one run:
//   1. cr2 + ν (and the whole analyze()) in-process on K = 10⁶ documents, vs numpy O(K);
//   2. the article's K×K numpy code on K = 10⁴ vs the whole `ragci analyze --aggregated`
//      process on K = 10⁶;
//   3. `ragci analyze` on a 10-million-row per-query CSV (and its Parquet copy) vs pandas
//      read_csv + groupby, with peak memory;
// then a breakdown of where ragci's time goes. Prints a table and writes bench/RESULTS.md.
//
// Build first (npx tsc -p tsconfig.build.json), then: node bench/analyze.mjs
//   --skip-investigation   only the comparison table
//   --snapshot             benchmark a copy of the working tree's src/, built in bench/out/
//   --head                 benchmark the committed HEAD, built into bench/out/head/dist
//   --dist DIR             benchmark another build of dist/
// Inputs are generated (seeded) into bench/out/ and reused when already there.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { ensureResultsCsv, perDocument, writePerDocumentCsv } from "./generate.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = path.join(ROOT, "bench", "out");
const distFlag = process.argv.indexOf("--dist");
/**
 * The build under test: dist/ by default; --dist DIR for another build. --snapshot copies the
 * working tree's src/ (--head: the committed HEAD's, via `git archive`) into bench/out/ and
 * builds it there, so edits in progress in src/ or a concurrent rebuild of dist/ cannot change
 * the code in the middle of a run.
 */
const DIST = process.argv.includes("--snapshot")
  ? buildSnapshot(path.join(OUT, "snapshot"), "worktree")
  : process.argv.includes("--head")
    ? buildSnapshot(path.join(OUT, "head"), "head")
    : path.resolve(ROOT, distFlag >= 0 ? process.argv[distFlag + 1] : "dist");

function buildSnapshot(dir, from) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = ["src", "package.json", "tsconfig.json", "tsconfig.build.json"];
  const git = (...args) => execFileSync("git", args, { cwd: ROOT, maxBuffer: 1 << 28 });
  if (from === "head") {
    execFileSync("tar", ["-x", "-C", dir], {
      input: git("archive", "--format=tar", "HEAD", ...files),
    });
  } else {
    for (const f of files) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  }
  // Identify what was built: the commit, and for a working-tree copy a digest of its src/.
  const head = String(git("rev-parse", "--short", "HEAD")).trim();
  const dirty =
    from === "worktree" && String(git("status", "--porcelain", "--", "src")).trim() !== "";
  const digest = createHash("sha256");
  const srcDir = path.join(dir, "src");
  for (const f of readdirSync(srcDir, { recursive: true }).map(String).sort()) {
    const full = path.join(srcDir, f);
    if (statSync(full).isFile()) digest.update(f).update(readFileSync(full));
  }
  const stamp = dirty
    ? `${head} + uncommitted src/ changes (src/ sha256 ${digest.digest("hex").slice(0, 12)})`
    : head;
  writeFileSync(path.join(dir, "COMMIT"), stamp);
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const built = spawnSync(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.build.json")], {
    encoding: "utf8",
  });
  if (built.status !== 0) {
    process.stderr.write(
      `bench: tsc reported errors building ${dir} (continuing with its output):\n`,
    );
    process.stderr.write(`${built.stdout}`.split("\n").slice(0, 10).join("\n"));
  }
  return path.join(dir, "dist");
}
const CLI = path.join(DIST, "cli", "main.js");
const PROBE = path.join(ROOT, "bench", "probe.mjs");
const REPEATS = 3;
const INVESTIGATE = !process.argv.includes("--skip-investigation");
const K_LARGE = 1_000_000;
const K_SMALL = 10_000;
const ROWS = 10_000_000;
const ROW_DOCS = 50_000;
const started = performance.now();

// ---------------------------------------------------------------- helpers

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function fmtTime(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 1e-3) return `${(seconds * 1e6).toFixed(0)} µs`;
  if (seconds < 1) return `${(seconds * 1e3).toFixed(seconds < 0.1 ? 1 : 0)} ms`;
  if (seconds < 100) return `${seconds.toFixed(2)} s`;
  return `${seconds.toFixed(0)} s${seconds >= 600 ? ` (${(seconds / 60).toFixed(0)} min)` : ""}`;
}
const fmtTimed = (t) => (t ? `${fmtTime(t.median)} (min ${fmtTime(t.min)})` : "—");
const fmtMb = (mb) => (mb === null || mb === undefined ? "—" : `${Math.round(mb)} MB`);
const fmtRatio = (r) =>
  r === null || !Number.isFinite(r) ? "—" : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
const relDiff = (a, b) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));

function log(message) {
  const t = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[${t} s] ${message}\n`);
}

/** Median and min over `repeats` runs of an in-process function (after `warmup` runs). */
function timeInProcess(work, { repeats = REPEATS, warmup = 1 } = {}) {
  let value;
  for (let i = 0; i < warmup; i++) value = work();
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = process.hrtime.bigint();
    value = work();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return { median: median(times), min: Math.min(...times), times, value };
}

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const TIME_FILE = path.join(OUT, ".time-output");

/** Peak RSS without /usr/bin/time: poll the child's VmHWM (high-water mark) every 10 ms. */
function spawnPollingHwm(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let hwmKb = 0;
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
      } catch {}
    }, 10);
    child.on("error", reject);
    child.on("close", (status) => {
      clearInterval(poll);
      resolve({ status, stderr, rssKb: hwmKb });
    });
  });
}

/**
 * Runs a whole process once: wall time (hrtime around the spawn) and peak RSS (/usr/bin/time
 * %M, i.e. the child's getrusage ru_maxrss; or VmHWM polling where /usr/bin/time is missing).
 * stdout goes to `stdoutFile`.
 */
async function runOnce(command, args, { env = process.env, stdoutFile } = {}) {
  const fd = openSync(stdoutFile ?? "/dev/null", "w");
  const options = { stdio: ["ignore", fd, "pipe"], env, cwd: ROOT, maxBuffer: 1 << 26 };
  const t0 = process.hrtime.bigint();
  let result;
  if (TIME) {
    const r = spawnSync(TIME, ["-f", "%M", "-o", TIME_FILE, command, ...args], options);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const lines = readFileSync(TIME_FILE, "utf8").trim().split("\n");
    result = { status: r.status, stderr: String(r.stderr), seconds, rssKb: Number(lines.at(-1)) };
  } else {
    const r = await spawnPollingHwm(command, args, options);
    result = { ...r, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  }
  closeSync(fd);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status}:\n${result.stderr}`);
  }
  return result;
}

/** REPEATS runs of a whole process: median and min wall time, the largest peak RSS. */
async function timeProcess(label, command, args, options = {}) {
  const runs = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await runOnce(command, args, options));
  const times = runs.map((r) => r.seconds);
  const t = {
    median: median(times),
    min: Math.min(...times),
    times,
    rssMb: Math.max(...runs.map((r) => r.rssKb)) / 1024,
  };
  log(`  ${label}: ${fmtTimed(t)}, peak ${fmtMb(t.rssMb)}`);
  return t;
}

/**
 * One run with a time limit (for the default bootstrap, which may take minutes): the child is
 * spawned directly, without /usr/bin/time, so that SIGKILL at the limit reaches it.
 */
function runWithTimeout(command, args, seconds) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, {
    stdio: ["ignore", "ignore", "pipe"],
    cwd: ROOT,
    timeout: seconds * 1000,
    killSignal: "SIGKILL",
  });
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  const killed = r.signal === "SIGKILL" || r.error?.code === "ETIMEDOUT";
  if (!killed && r.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${r.stderr}`);
  return { seconds: elapsed, killed, limit: seconds };
}

function pythonInterpreter(name) {
  // pyenv's python3 is a shell shim; time the real interpreter so the shim is not counted.
  return execFileSync(name, ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  }).trim();
}

/** The environment of the numpy/pandas subprocesses: OpenBLAS tuning variables removed. */
function pythonEnv() {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  return env;
}

function probe(args) {
  const out = execFileSync(process.execPath, [PROBE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, RAGCI_BENCH_DIST: DIST },
  });
  return JSON.parse(out.trim().split("\n").at(-1));
}

function cpuPressure() {
  try {
    return /avg60=([\d.]+)/.exec(readFileSync("/proc/pressure/cpu", "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
}

function textTable(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function markdownTable(headers, rows) {
  const esc = (c) => String(c).replaceAll("|", "\\|");
  return [
    `| ${headers.map(esc).join(" | ")} |`,
    `|${headers.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

// ---------------------------------------------------------------- setup

if (!existsSync(CLI)) {
  console.error(`bench: ${CLI} is missing; build first: npx tsc -p tsconfig.build.json`);
  process.exit(2);
}
mkdirSync(OUT, { recursive: true });
const distModule = (p) => import(pathToFileURL(path.join(DIST, p)).href);
const core = await distModule("core/index.js");

// Builds with the bootstrap family run B = 9999 resamples by default (O(B·K)); the analytic
// intervals (cr2 + ν, cr1, t, Wald, logit) are what the reference implementations compute.
const hasBootstrap = (() => {
  const tiny = core.documentStats({ ids: ["a", "b", "c"], n: [2, 3, 4], s: [1, 2, 3] });
  const intervals = core.analyze(tiny, { replicates: 99 }).micro?.intervals ?? {};
  return Object.keys(intervals).some((m) => m.includes("bootstrap"));
})();
const cliReplicates = (() => {
  try {
    const help = execFileSync(process.execPath, [CLI, "analyze", "--help"], { encoding: "utf8" });
    return help.includes("--replicates");
  } catch {
    return false;
  }
})();
/** CLI flags for the analytic methods only (no resampling), when the CLI has them. */
const ANALYTIC = cliReplicates ? ["--replicates", "0"] : [];
const analyticLabel = cliReplicates ? " --replicates 0" : "";
const DEFAULT_TIMEOUT_S = 15;

function newestMtime(dir, ext) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(ext)) {
      newest = Math.max(
        newest,
        statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs,
      );
    }
  }
  return newest;
}
const srcDir = path.join(DIST, "..", "src");
const staleDist = existsSync(srcDir) && newestMtime(srcDir, ".ts") > newestMtime(DIST, ".js");
if (staleDist) log(`warning: some src/ file is newer than ${DIST}; results are for that build`);
const distLabel = path.relative(ROOT, DIST) || ".";
/** The commit the build under test was made from, when its parent directory is a checkout. */
const gitHead = (() => {
  const git = (...args) =>
    execFileSync("git", args, { cwd: path.join(DIST, ".."), encoding: "utf8" }).trim();
  const stamp = path.join(DIST, "..", "COMMIT"); // written when a snapshot is made
  if (existsSync(stamp)) return readFileSync(stamp, "utf8").trim();
  try {
    const dirty = git("status", "--porcelain", "--", "src") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " + uncommitted src/ changes" : ""}`;
  } catch {
    return "unknown";
  }
})();

const NUMPY_PY = pythonInterpreter("python3");
const PANDAS_PY = "/usr/bin/python3";
const pyEnv = pythonEnv();
const numpyVersion = execFileSync(NUMPY_PY, ["-c", "import numpy; print(numpy.__version__)"], {
  encoding: "utf8",
  env: pyEnv,
}).trim();
const pandasVersions = execFileSync(
  PANDAS_PY,
  ["-c", "import pandas, numpy; print(pandas.__version__, numpy.__version__)"],
  { encoding: "utf8", env: pyEnv },
)
  .trim()
  .split(" ");
const pandasParquet =
  spawnSync(PANDAS_PY, ["-c", "import pyarrow"], { env: pyEnv }).status === 0 ||
  spawnSync(PANDAS_PY, ["-c", "import fastparquet"], { env: pyEnv }).status === 0;
const duckdbVersion = await (async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const version = (await connection.runAndReadAll("SELECT version()")).getRowsJS()[0][0];
  connection.closeSync();
  instance.closeSync();
  return version;
})();
const machine = {
  date: new Date()
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC"),
  nproc: execFileSync("nproc", { encoding: "utf8" }).trim(),
  cpu: os.cpus()[0]?.model ?? "unknown",
  memGb: (os.totalmem() / 2 ** 30).toFixed(0),
  node: process.version,
  numpy: numpyVersion,
  pandas: pandasVersions[0],
  pandasNumpy: pandasVersions[1],
  duckdb: duckdbVersion,
  numpyPython: NUMPY_PY,
  memoryTool: TIME ? "/usr/bin/time -f %M (getrusage ru_maxrss of the child)" : "VmHWM polling",
  pressureStart: cpuPressure(),
  loadStart: os.loadavg()[0].toFixed(2),
};
log(
  `node ${machine.node}, numpy ${machine.numpy}, pandas ${machine.pandas}, DuckDB ${machine.duckdb}`,
);

const rows = []; // the comparison table
const checks = []; // cross-checks of the numbers the implementations produce
const findings = []; // investigation

// ---------------------------------------------------------------- 1. cr2 + ν in-process

log(`1. generating K = ${K_LARGE} documents`);
const large = perDocument(K_LARGE, 1);
const docStatsTime = timeInProcess(() => core.documentStats(large), { repeats: 1, warmup: 0 });
const stats = docStatsTime.value;
const rawN = path.join(OUT, "n-1e6.f64");
const rawS = path.join(OUT, "s-1e6.f64");
writeFileSync(rawN, Buffer.from(stats.n.buffer));
writeFileSync(rawS, Buffer.from(stats.s.buffer));

const cr2Time = timeInProcess(() => core.cr2(stats), { repeats: 15, warmup: 5 });
const dfTime = timeInProcess(() => core.cr2DegreesOfFreedom(stats), { repeats: 9, warmup: 3 });
log(`  cr2: ${fmtTimed(cr2Time)}; ν alone: ${fmtTimed(dfTime)}`);
const analytic = { replicates: 0 }; // ignored by builds without the bootstrap
const analyzeTime = timeInProcess(() => core.analyze(stats, analytic), {
  repeats: REPEATS,
  warmup: 1,
});
log(`  analyze${hasBootstrap ? " (replicates: 0)" : ""}: ${fmtTimed(analyzeTime)}`);
// Bootstrap cost per resampled document, measured on K = 10⁴ with B = 999, to extrapolate
// the default B = 9999 (running it on K = 10⁶ would take far longer than the whole benchmark).
let bootstrap = null;
if (hasBootstrap) {
  const smallStats = core.documentStats(perDocument(K_SMALL, 2));
  const b = 999;
  const without = timeInProcess(() => core.analyze(smallStats, analytic), { repeats: 1 }).min;
  const withB = timeInProcess(() => core.analyze(smallStats, { replicates: b }), {
    repeats: 1,
    warmup: 0,
  }).min;
  const perDraw = Math.max(0, withB - without) / (b * K_SMALL);
  const extrapolate = (k, analyticSeconds) => analyticSeconds + perDraw * 9999 * k;
  bootstrap = { b, withB, without, perDraw, extrapolate };
  log(
    `  bootstrap: B = ${b} on K = ${K_SMALL}: ${fmtTime(withB)} (${(perDraw * 1e9).toFixed(1)} ns per resampled document)`,
  );
}

const NUMPY_OK = `
import json, sys, timeit
import numpy as np
n = np.fromfile(sys.argv[1]); s = np.fromfile(sys.argv[2])
def cr2():
    N = n.sum(); R = s.sum() / N; u = s - R * n; h = n / N
    se = np.sqrt(np.sum(u**2 / (1 - h))) / N
    g = n * n / (N * (N - n))
    df = 1 / (np.sum(h * h) + np.sum(g) ** 2 - np.sum(g * g))
    return se, df
timeit.repeat(cr2, number=1, repeat=3)
times = timeit.repeat(cr2, number=1, repeat=9)
se, df = cr2()
print(json.dumps({"times": times, "se": float(se), "df": float(df)}))
`;
const npOk = JSON.parse(
  execFileSync(NUMPY_PY, ["-c", NUMPY_OK, rawN, rawS], { encoding: "utf8", env: pyEnv }),
);
const npOkTime = { median: median(npOk.times), min: Math.min(...npOk.times) };
log(`  numpy O(K) same formulas: ${fmtTimed(npOkTime)}`);
checks.push(
  `cr2 on K = 10⁶: ragci se ${cr2Time.value.se.toPrecision(12)}, ν ${cr2Time.value.df.toPrecision(12)}; ` +
    `numpy O(K) se ${npOk.se.toPrecision(12)}, ν ${npOk.df.toPrecision(12)} ` +
    `(relative differences ${relDiff(cr2Time.value.se, npOk.se).toExponential(1)}, ${relDiff(cr2Time.value.df, npOk.df).toExponential(1)})`,
);
rows.push({
  case: "1a. cr2 + ν in-process, K = 10⁶",
  ragci: cr2Time,
  reference: npOkTime,
  referenceName: "numpy, same O(K) formulas, K = 10⁶",
  target: "< 50 ms",
  met: cr2Time.median < 0.05,
});
rows.push({
  case: `1b. analyze(stats${hasBootstrap ? ", { replicates: 0 }" : ""}) in-process, K = 10⁶`,
  ragci: analyzeTime,
  reference: null,
  referenceName: "—",
  target: "(none)",
  met: null,
});
if (bootstrap) {
  rows.push({
    case: "1c. analyze(stats) default (B = 9999 bootstrap), K = 10⁶",
    ragciText: `≈ ${fmtTime(bootstrap.extrapolate(K_LARGE, analyzeTime.median))} (extrapolated, not run)`,
    reference: null,
    referenceName: `— (measured: B = ${bootstrap.b}, K = 10⁴ takes ${fmtTime(bootstrap.withB)})`,
    target: "(none)",
    met: null,
  });
}

// ---------------------------------------------------------------- 2. K×K numpy vs the CLI

log(`2. numpy K×K on K = ${K_SMALL} vs ragci --aggregated on K = ${K_LARGE}`);
const perdocLarge = path.join(OUT, "perdoc-1e6.csv");
const perdocSmall = path.join(OUT, "perdoc-1e4.csv");
writePerDocumentCsv(perdocLarge, large);
const small = perDocument(K_SMALL, 2);
writePerDocumentCsv(perdocSmall, small);

const NUMPY_KXK = `
import json, sys, time
t0 = time.perf_counter()
import numpy as np
t1 = time.perf_counter()
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
n = np.ascontiguousarray(data[:, 0]); s = np.ascontiguousarray(data[:, 1])
t2 = time.perf_counter()
N = n.sum()
R = s.sum() / N
u = s - R * n
h = n / N
se = np.sqrt(np.sum(u**2 / (1 - h))) / N
a = 1 / np.sqrt(1 - h)
M = -np.outer(a * n, a * n) / N
M[np.diag_indices_from(M)] += a**2 * n
df = np.trace(M) ** 2 / np.sum(M * M)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "compute": t3 - t2, "se": float(se), "df": float(df)}))
`;
// The article's code as written, deterministic part: it imports scipy for the t quantile and
// reports both intervals (its pandas groupby is replaced by loading the per-document table, and
// its bootstrap is left out, as ragci runs here with --replicates 0).
const ARTICLE_KXK = `
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from scipy import stats
t1 = time.perf_counter()
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
n = np.ascontiguousarray(data[:, 0]); s = np.ascontiguousarray(data[:, 1])
t2 = time.perf_counter()
K, N = len(n), n.sum()
R = s.sum() / N
u = s - R * n
h = n / N
se_micro = np.sqrt(np.sum(u**2 / (1 - h))) / N
a = 1 / np.sqrt(1 - h)
M = -np.outer(a * n, a * n) / N
M[np.diag_indices(K)] += a**2 * n
df_micro = np.trace(M)**2 / np.sum(M * M)
ci_micro = R + np.array([-1, 1]) * stats.t.ppf(0.975, df_micro) * se_micro
r = s / n
se_macro = r.std(ddof=1) / np.sqrt(K)
ci_macro = r.mean() + np.array([-1, 1]) * stats.t.ppf(0.975, K - 1) * se_macro
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "compute": t3 - t2, "se": float(se_micro), "df": float(df_micro), "ci_micro": ci_micro.tolist(), "ci_macro": ci_macro.tolist()}))
`;
const articleOut = path.join(OUT, "article-kxk.json");
const articleRuns = [];
const articleTimes = [];
for (let i = 0; i < REPEATS; i++) {
  articleRuns.push(
    await runOnce(NUMPY_PY, ["-c", ARTICLE_KXK, perdocSmall], {
      env: pyEnv,
      stdoutFile: articleOut,
    }),
  );
  articleTimes.push(JSON.parse(readFileSync(articleOut, "utf8")));
}
const articleProcess = {
  median: median(articleRuns.map((r) => r.seconds)),
  min: Math.min(...articleRuns.map((r) => r.seconds)),
  rssMb: Math.max(...articleRuns.map((r) => r.rssKb)) / 1024,
};
log(
  `  article's code (numpy + scipy) process: ${fmtTimed(articleProcess)}, import ${fmtTime(median(articleTimes.map((r) => r.import)))}`,
);
const npOut = path.join(OUT, "numpy-kxk.json");
const npComputeTimes = [];
const npRuns = [];
for (let i = 0; i < REPEATS; i++) {
  npRuns.push(
    await runOnce(NUMPY_PY, ["-c", NUMPY_KXK, perdocSmall], { env: pyEnv, stdoutFile: npOut }),
  );
  npComputeTimes.push(JSON.parse(readFileSync(npOut, "utf8")));
}
const npProcess = {
  median: median(npRuns.map((r) => r.seconds)),
  min: Math.min(...npRuns.map((r) => r.seconds)),
  rssMb: Math.max(...npRuns.map((r) => r.rssKb)) / 1024,
};
const npCompute = {
  median: median(npComputeTimes.map((r) => r.compute)),
  min: Math.min(...npComputeTimes.map((r) => r.compute)),
};
log(
  `  numpy K×K process: ${fmtTimed(npProcess)}, compute ${fmtTimed(npCompute)}, peak ${fmtMb(npProcess.rssMb)}`,
);
const smallCr2 = core.cr2(core.documentStats(small));
const npResult = npComputeTimes[0];
checks.push(
  `K×K numpy on K = 10⁴: se ${npResult.se.toPrecision(12)}, ν ${npResult.df.toPrecision(12)}; ragci cr2 ` +
    `se ${smallCr2.se.toPrecision(12)}, ν ${smallCr2.df.toPrecision(12)} (relative differences ` +
    `${relDiff(npResult.se, smallCr2.se).toExponential(1)}, ${relDiff(npResult.df, smallCr2.df).toExponential(1)})`,
);

const cliAggOut = path.join(OUT, "ragci-perdoc-1e6.json");
const cliAgg = await timeProcess(
  "ragci --aggregated K = 10⁶",
  process.execPath,
  [CLI, "analyze", perdocLarge, "--aggregated", "--json", ...ANALYTIC],
  { stdoutFile: cliAggOut },
);
const aggJson = JSON.parse(readFileSync(cliAggOut, "utf8"));
checks.push(
  `ragci CLI on perdoc-1e6.csv: ${aggJson.documents} documents, cr2 se ${aggJson.micro?.intervals?.cr2?.se}, ` +
    `ν ${aggJson.micro?.intervals?.cr2?.df} (in-process cr2: relative differences ` +
    `${relDiff(aggJson.micro?.intervals?.cr2?.se, cr2Time.value.se).toExponential(1)}, ` +
    `${relDiff(aggJson.micro?.intervals?.cr2?.df, cr2Time.value.df).toExponential(1)})`,
);
const cliAggSmall = await timeProcess(
  "ragci --aggregated K = 10⁴",
  process.execPath,
  [CLI, "analyze", perdocSmall, "--aggregated", "--json", ...ANALYTIC],
  { stdoutFile: path.join(OUT, "ragci-perdoc-1e4.json") },
);
{
  const small = JSON.parse(readFileSync(path.join(OUT, "ragci-perdoc-1e4.json"), "utf8"));
  const art = articleTimes[0];
  const cr2 = small.micro?.intervals?.cr2;
  const t = small.macro?.intervals?.t;
  checks.push(
    `the article's code on K = 10⁴: micro [${art.ci_micro.map((x) => x.toPrecision(12)).join(", ")}], macro [${art.ci_macro.map((x) => x.toPrecision(12)).join(", ")}]; ragci CLI cr2 [${cr2?.lower}, ${cr2?.upper}], t [${t?.lower}, ${t?.upper}] (largest relative difference ${Math.max(relDiff(art.ci_micro[0], cr2?.lower), relDiff(art.ci_micro[1], cr2?.upper), relDiff(art.ci_macro[0], t?.lower), relDiff(art.ci_macro[1], t?.upper)).toExponential(1)})`,
  );
}
rows.push({
  case: `2a. ragci analyze --aggregated${analyticLabel} process, K = 10⁶`,
  ragci: cliAgg,
  reference: articleProcess,
  referenceName:
    "the article's K×K code as written (numpy + scipy, both intervals) whole process, K = 10⁴",
  target: "ragci faster",
  met: cliAgg.median < articleProcess.median,
});
rows.push({
  case: `2b. ragci analyze --aggregated${analyticLabel} process, K = 10⁶`,
  ragci: cliAgg,
  reference: npProcess,
  referenceName: "numpy K×K only (no scipy, no intervals) whole process, K = 10⁴",
  target: "(stricter)",
  met: cliAgg.median < npProcess.median,
});
rows.push({
  case: `2b'. ragci analyze --aggregated${analyticLabel} process, K = 10⁶`,
  ragci: cliAgg,
  reference: npCompute,
  referenceName: "numpy K×K computation only (perf_counter), K = 10⁴",
  target: "(stricter)",
  met: cliAgg.median < npCompute.median,
});
rows.push({
  case: `2c. ragci analyze --aggregated${analyticLabel} process, K = 10⁴`,
  ragci: cliAggSmall,
  reference: npProcess,
  referenceName: "numpy K×K whole process, K = 10⁴",
  target: "(same K)",
  met: null,
});
/** A row for the CLI's default command (B = 9999 bootstrap), run once under a time limit. */
function defaultRow(name, args, reference, referenceName, target, k, analyticSeconds) {
  const r = runWithTimeout(process.execPath, args, DEFAULT_TIMEOUT_S);
  const estimate = bootstrap
    ? ` ≈ ${fmtTime(bootstrap.extrapolate(k, analyticSeconds))} extrapolated`
    : "";
  log(`  ${name}: ${r.killed ? `killed at ${r.limit} s` : fmtTime(r.seconds)}`);
  return {
    case: name,
    ragci: r.killed ? null : { median: r.seconds, min: r.seconds },
    ragciText: r.killed ? `> ${r.limit} s (killed;${estimate})` : `${fmtTime(r.seconds)} (1 run)`,
    ratioText: r.killed ? `< ${fmtRatio(reference.median / r.limit)}` : null,
    reference,
    referenceName,
    target,
    met: !r.killed && reference.median / r.seconds >= (target.startsWith("≥ 4") ? 4 : 1),
  };
}
if (cliReplicates) {
  rows.push(
    defaultRow(
      "2d. ragci analyze --aggregated (default: B = 9999 bootstrap), K = 10⁶",
      [CLI, "analyze", perdocLarge, "--aggregated", "--json"],
      npProcess,
      "numpy K×K whole process, K = 10⁴",
      "ragci faster",
      K_LARGE,
      cliAgg.median,
    ),
  );
}

// ---------------------------------------------------------------- 3. 10M-row per-query file

log(`3. per-query file: ${ROWS} rows, ${ROW_DOCS} documents`);
const csv = path.join(OUT, "results-10m.csv");
const parquet = path.join(OUT, "results-10m.parquet");
const generated = ensureResultsCsv(csv, ROWS, ROW_DOCS, 20240601);
log(
  generated.reused
    ? "  reusing bench/out/results-10m.csv"
    : `  generated CSV in ${generated.seconds.toFixed(1)} s`,
);
if (!existsSync(parquet) || statSync(parquet).mtimeMs < statSync(csv).mtimeMs) {
  const t0 = performance.now();
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const q = (p) => `'${p.replaceAll("'", "''")}'`;
  await connection.run(
    `COPY (SELECT * FROM read_csv(${q(csv)})) TO ${q(parquet)} (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  log(`  wrote Parquet copy in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const csvMb = statSync(csv).size / 2 ** 20;
const parquetMb = statSync(parquet).size / 2 ** 20;

const cliCsvOut = path.join(OUT, "ragci-results-csv.json");
const rowArgs = ["--doc", "doc_id", "--metric", "hit", "--json", ...ANALYTIC];
const cliCsv = await timeProcess("ragci CSV", process.execPath, [CLI, "analyze", csv, ...rowArgs], {
  stdoutFile: cliCsvOut,
});
const cliParquet = await timeProcess(
  "ragci Parquet",
  process.execPath,
  [CLI, "analyze", parquet, ...rowArgs],
  { stdoutFile: path.join(OUT, "ragci-results-parquet.json") },
);
const PANDAS = `
import json, sys, time
t0 = time.perf_counter()
import pandas as pd
t1 = time.perf_counter()
df = pd.read_csv(sys.argv[1])
t2 = time.perf_counter()
g = df.groupby("doc_id")["hit"].agg(["size", "sum"])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "read": t2 - t1, "groupby": t3 - t2, "documents": len(g),
                  "rows": int(g["size"].sum()), "hits": int(g["sum"].sum())}))
`;
const pandasOut = path.join(OUT, "pandas.json");
const pandasRuns = [];
const pandasInner = [];
for (let i = 0; i < REPEATS; i++) {
  pandasRuns.push(
    await runOnce(PANDAS_PY, ["-c", PANDAS, csv], { env: pyEnv, stdoutFile: pandasOut }),
  );
  pandasInner.push(JSON.parse(readFileSync(pandasOut, "utf8")));
}
const pandasTime = {
  median: median(pandasRuns.map((r) => r.seconds)),
  min: Math.min(...pandasRuns.map((r) => r.seconds)),
  rssMb: Math.max(...pandasRuns.map((r) => r.rssKb)) / 1024,
};
log(`  pandas CSV: ${fmtTimed(pandasTime)}, peak ${fmtMb(pandasTime.rssMb)}`);
const pandasSplit = {
  import: median(pandasInner.map((r) => r.import)),
  read: median(pandasInner.map((r) => r.read)),
  groupby: median(pandasInner.map((r) => r.groupby)),
};
const csvJson = JSON.parse(readFileSync(cliCsvOut, "utf8"));
const pandasResult = pandasInner[0];
checks.push(
  `10M-row CSV: ragci ${csvJson.documents} documents, ${csvJson.results} results, micro ${csvJson.micro.estimate}; ` +
    `pandas ${pandasResult.documents} groups, ${pandasResult.rows} rows, ${pandasResult.hits} hits ` +
    `(micro ${pandasResult.hits / pandasResult.rows})`,
);
rows.push({
  case: `3a. ragci analyze${analyticLabel}, 10M-row CSV (${csvMb.toFixed(0)} MB)`,
  ragci: cliCsv,
  reference: pandasTime,
  referenceName: "pandas read_csv + groupby size/sum, whole process",
  target: "≥ 4× faster, less memory",
  met: pandasTime.median / cliCsv.median >= 4 && cliCsv.rssMb < pandasTime.rssMb,
});
rows.push({
  case: `3b. ragci analyze${analyticLabel}, same rows as Parquet (${parquetMb.toFixed(0)} MB)`,
  ragci: cliParquet,
  reference: pandasTime,
  referenceName: pandasParquet
    ? "pandas on the CSV"
    : "pandas on the CSV (no pyarrow/fastparquet for read_parquet)",
  target: "(informational)",
  met: null,
});
if (cliReplicates) {
  rows.push(
    defaultRow(
      "3c. ragci analyze (default: B = 9999 bootstrap), 10M-row CSV",
      [CLI, "analyze", csv, "--doc", "doc_id", "--metric", "hit", "--json"],
      pandasTime,
      "pandas read_csv + groupby size/sum, whole process",
      "≥ 4× faster",
      ROW_DOCS,
      cliCsv.median,
    ),
  );
}

// ---------------------------------------------------------------- investigation

const investigation = {};
if (INVESTIGATE) {
  log("4. where the time goes");
  const startup = await timeProcess("node dist/cli/main.js --version", process.execPath, [
    CLI,
    "--version",
  ]);
  investigation.startup = startup;
  const stdlib = Object.keys(
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).dependencies ?? {},
  ).filter((d) => d.startsWith("@stdlib/"));
  const importOnly = (modules) => [
    "--input-type=module",
    "-e",
    modules.map((m) => `await import(${JSON.stringify(m)});`).join(" "),
  ];
  investigation.startupParts = [
    ["node -e 0 (bare Node)", await timeProcess("node -e 0", process.execPath, ["-e", "0"])],
    [
      "node: import @duckdb/node-api",
      await timeProcess("import duckdb", process.execPath, importOnly(["@duckdb/node-api"])),
    ],
    [
      `node: import the ${stdlib.length} @stdlib packages`,
      await timeProcess("import stdlib", process.execPath, importOnly(stdlib)),
    ],
  ];

  // cr2 + ν fused into two passes without temporary arrays (a sketch, not shipped code).
  const fused = timeInProcess(() => fusedCr2(stats), { repeats: 9, warmup: 3 });
  investigation.fused = {
    time: fused,
    agree: Math.max(
      relDiff(fused.value.se, cr2Time.value.se),
      relDiff(fused.value.df, cr2Time.value.df),
    ),
  };

  // analyze() on K = 10⁶, piece by piece (whichever of these the build exports).
  const iccValue = typeof core.icc === "function" ? core.icc(stats) : null;
  const has = (...names) => names.every((name) => typeof core[name] === "function");
  const parts = [
    [
      "documentStats (validation, copies, Set of ids)",
      "documentStats",
      () => core.documentStats(large),
    ],
    [
      "documentStats with idsDistinct: true (no Set; ignored by older builds)",
      "documentStats",
      () => core.documentStats({ ...large, idsDistinct: true }),
    ],
    ["cr2 (se + ν)", "cr2", () => core.cr2(stats)],
    ["cr1", "cr1", () => core.cr1(stats)],
    ["macroT", "macroT", () => core.macroT(stats)],
    ["waldIid", "waldIid", () => core.waldIid(stats)],
    ["icc", "icc", () => core.icc(stats)],
    ["kishDeff", "kishDeff", () => core.kishDeff(stats, iccValue?.available ? iccValue.icc : 0)],
    ["sizeDistribution", "sizeDistribution", () => core.sizeDistribution(stats)],
    ["rateDistribution", "rateDistribution", () => core.rateDistribution(stats)],
    ["influence (micro)", "influence", () => core.influence(stats, "micro")],
    ["influence (macro)", "influence", () => core.influence(stats, "macro")],
    [
      "micro + macro estimates",
      "microEstimate",
      () => [core.microEstimate(stats), core.macroEstimate(stats)],
    ],
  ].filter(([, name]) => has(name));
  investigation.analyzeParts = parts.map(([name, , work]) => {
    const t = timeInProcess(work, { repeats: name.startsWith("documentStats") ? 1 : REPEATS });
    return [name, t];
  });

  log("  probes: --aggregated stages (1 run each)");
  investigation.aggStages = probe(["stages", perdocLarge, "1", "--aggregated"]);
  log("  probes: per-query CSV stages (2 runs each)");
  investigation.csvStages = probe(["stages", csv, "2"]);
  log("  probes: DuckDB queries on the CSV (2 runs each)");
  const variants = [
    "scan",
    "group-double",
    "group-decimal",
    "ragci",
    "ragci-double",
    "ragci-decimal",
  ];
  investigation.csvSql = probe(["sql", csv, "2", ...variants]);
  log("  probes: DuckDB queries on the Parquet file (2 runs each)");
  investigation.parquetSql = probe(["sql", parquet, "2", ...variants]);
}

/**
 * cr2 se and the Imbens–Kolesár ν (the same formulas as src/core/variance) in two passes over
 * n and s, Neumaier-compensated, with no temporary arrays: how fast the O(K) work can be.
 */
function fusedCr2({ n, s }) {
  const k = n.length;
  let N = 0;
  let cN = 0;
  let S = 0;
  let cS = 0;
  for (let d = 0; d < k; d++) {
    const x = n[d];
    let t = N + x;
    cN += Math.abs(N) >= Math.abs(x) ? N - t + x : x - t + N;
    N = t;
    const y = s[d];
    t = S + y;
    cS += Math.abs(S) >= Math.abs(y) ? S - t + y : y - t + S;
    S = t;
  }
  N += cN;
  S += cS;
  const R = S / N;
  let V = 0;
  let cV = 0;
  let H = 0;
  let cH = 0;
  let X = 0;
  let cX = 0;
  let G = 0;
  let cG = 0;
  for (let d = 0; d < k; d++) {
    const nd = n[d];
    const rest = N - nd;
    const u = s[d] - R * nd;
    const v = (u * u * N) / rest;
    let t = V + v;
    cV += Math.abs(V) >= v ? V - t + v : v - t + V;
    V = t;
    const h = nd / N;
    const h2 = h * h;
    t = H + h2;
    cH += H >= h2 ? H - t + h2 : h2 - t + H;
    H = t;
    const g = (nd * nd) / (N * rest);
    const x = 2 * g * (G + cG);
    t = X + x;
    cX += X >= x ? X - t + x : x - t + X;
    X = t;
    t = G + g;
    cG += G >= g ? G - t + g : g - t + G;
    G = t;
  }
  return { se: Math.sqrt(V + cV) / N, df: 1 / (H + cH + (X + cX)) };
}

// ---------------------------------------------------------------- report

machine.pressureEnd = cpuPressure();
machine.loadEnd = os.loadavg()[0].toFixed(2);
const totalSeconds = (performance.now() - started) / 1000;

const headers = [
  "Case",
  "ragci",
  "Reference",
  "Reference time",
  "Ratio ref/ragci",
  "ragci peak",
  "Ref peak",
  "Target",
  "Met",
];
const tableRows = rows.map((r) => [
  r.case,
  r.ragciText ?? fmtTimed(r.ragci),
  r.referenceName,
  fmtTimed(r.reference),
  r.ratioText ?? (r.reference && r.ragci ? fmtRatio(r.reference.median / r.ragci.median) : "—"),
  fmtMb(r.ragci?.rssMb),
  fmtMb(r.reference?.rssMb),
  r.target,
  r.met === null ? "" : r.met ? "yes" : "NO",
]);

const detailLines = [
  `the article's code (numpy + scipy), K = 10⁴: imports ${fmtTime(median(articleTimes.map((r) => r.import)))}, loadtxt ${fmtTime(median(articleTimes.map((r) => r.load)))}, computation ${fmtTime(median(articleTimes.map((r) => r.compute)))} (medians)`,
  `numpy K×K, K = 10⁴: import ${fmtTime(median(npComputeTimes.map((r) => r.import)))}, loadtxt ${fmtTime(median(npComputeTimes.map((r) => r.load)))}, computation ${fmtTimed(npCompute)}`,
  `pandas, 10M rows: import ${fmtTime(pandasSplit.import)}, read_csv ${fmtTime(pandasSplit.read)}, groupby ${fmtTime(pandasSplit.groupby)} (medians)`,
  `cr2DegreesOfFreedom alone, K = 10⁶: ${fmtTimed(dfTime)}; documentStats on K = 10⁶ (one run): ${fmtTime(docStatsTime.min)}`,
];

const investigationSections = [];
if (INVESTIGATE) {
  const inv = investigation;
  const s = (x) => fmtTimed(x);
  investigationSections.push({
    title: "Startup (whole processes)",
    headers: ["Process", "Time"],
    rows: [
      ["node dist/cli/main.js --version", s(inv.startup)],
      ...inv.startupParts.map(([name, x]) => [name, s(x)]),
    ],
  });
  investigationSections.push({
    title: "analyze(stats) on K = 10⁶, piece by piece (in-process)",
    headers: ["Piece", "Time"],
    rows: [
      ...inv.analyzeParts.map(([name, t]) => [name, s(t)]),
      [`analyze(stats${hasBootstrap ? ", { replicates: 0 }" : ""}) (whole)`, s(analyzeTime)],
      [
        `sketch: cr2 + ν fused, 2 passes, no temporaries (max rel. diff ${inv.fused.agree.toExponential(1)})`,
        s(inv.fused.time),
      ],
    ],
  });
  const stageRows = (st, readName, extra) => [
    ["imports (dist/ingest, core, report)", fmtTime(st.imports)],
    [`${readName} (whole)`, s(st.read)],
    ...st.steps.map((step) => [`  ${step.step}`, s(step)]),
    ["  JS side (result → JS, checks, documentStats, …)", s(st.jsSide)],
    ["sha256File", s(st.sha256File)],
    [`${readName} ‖ sha256File (as the CLI runs them)`, s(st.concurrent)],
    [`analyze() on ${st.documents.toLocaleString("en")} documents`, s(st.analyze)],
    ["sha256Aggregates", s(st.sha256Aggregates)],
    ...extra,
    ["formatReportJson", s(st.formatReportJson)],
  ];
  const a = inv.aggStages;
  investigationSections.push({
    title: "ragci analyze --aggregated on K = 10⁶, stage by stage (in-process, one run each)",
    headers: ["Stage", "Time"],
    rows: [
      ...stageRows(a, "readAggregates", []),
      ["startup: node dist/cli/main.js --version (whole process)", s(inv.startup)],
      ["whole CLI process (table above)", s(cliAgg)],
    ],
  });
  const c = inv.csvStages;
  const q = inv.csvSql;
  const p = inv.parquetSql;
  investigationSections.push({
    title: `ragci analyze on the 10M-row CSV, stage by stage (in-process, median of 2; sums: ${c.summation})`,
    headers: ["Stage", "Time"],
    rows: [
      ...stageRows(c, "readResults", []),
      ["startup: node dist/cli/main.js --version (whole process)", s(inv.startup)],
      ["whole CLI process (table above)", s(cliCsv)],
    ],
  });
  const sqlRows = [
    ["scan: SELECT max(length(doc_id)), max(hit)", "scan"],
    ["GROUP BY doc_id: count(*), sum(hit) (double)", "group-double"],
    ["GROUP BY doc_id: count(*), sum(CAST(hit AS DECIMAL(38,18)))", "group-decimal"],
    ["ragci's aggregation query, as sent by readResults", "ragci"],
    ["  the same, every sum a plain double sum(x)", "ragci-double"],
    ["  the same, every sum in DECIMAL(38, 18)", "ragci-decimal"],
  ];
  const cell = (x) => (x ? `${s(x)}${x.sameAsShipped ? " (= as sent)" : ""}` : "—");
  investigationSections.push({
    title:
      "DuckDB alone, same settings as ragci (one instance, median of 2; result → JS not included)",
    headers: ["Query", "CSV (10M rows)", "Parquet (10M rows)"],
    rows: sqlRows.map(([name, key]) => [name, cell(q[key]), cell(p[key])]),
  });
  const decimalFinding = (where, x) => {
    if (!x["ragci-decimal"] || !x["ragci-double"]) return;
    const dec = x["ragci-decimal"].median;
    const dbl = x["ragci-double"].median;
    const shipped = x.decimalInShipped ? "DECIMAL (as sent)" : "DECIMAL";
    findings.push(
      `${where}: ragci's aggregation query takes ${fmtTime(dec)} with ${shipped} sums vs ` +
        `${fmtTime(dbl)} with double sums${x.doubleInShipped ? " (as sent)" : ""}: DECIMAL costs ` +
        `${fmtTime(dec - dbl)} (+${(((dec - dbl) / dbl) * 100).toFixed(0)}%). Minimal GROUP BY: ` +
        `${fmtTime(x["group-decimal"].median)} (DECIMAL) vs ${fmtTime(x["group-double"].median)} ` +
        `(double); scan alone ${fmtTime(x.scan.median)}.`,
    );
  };
  decimalFinding("10M-row CSV", q);
  decimalFinding("Parquet copy", p);
  const queries = a.steps
    .filter((x) => !x.step.startsWith("result") && !x.step.startsWith("fetchChunk"))
    .reduce((t, x) => t + x.median, 0);
  const conversion = a.steps
    .filter((x) => x.step.startsWith("result") || x.step.startsWith("fetchChunk"))
    .reduce((t, x) => t + x.median, 0);
  findings.push(
    `--aggregated K = 10⁶ (${fmtTime(cliAgg.median)} as a process): readAggregates ${fmtTime(a.read.median)} ` +
      `(DuckDB queries ${fmtTime(queries)}, fetching/converting results ${fmtTime(conversion)}, ` +
      `JS side ${fmtTime(a.jsSide.median)}), analyze ` +
      `${fmtTime(a.analyze.median)}, sha256Aggregates ${fmtTime(a.sha256Aggregates.median)}, startup ` +
      `${fmtTime(inv.startup.median)}; numpy's K×K computation on K = 10⁴ takes ${fmtTime(npCompute.median)}.`,
  );
}

const summary = textTable(headers, tableRows);
console.log(
  `\nragci benchmark — ${machine.date}, nproc ${machine.nproc}, ${machine.cpu}, node ${machine.node}`,
);
console.log(`build under test: ${distLabel}/ (commit ${gitHead})`);
console.log(
  `numpy ${machine.numpy} (${NUMPY_PY}), pandas ${machine.pandas} (${PANDAS_PY}), DuckDB ${machine.duckdb}`,
);
console.log(
  `times: median (min) of ${REPEATS} runs unless noted; peak = max RSS (${machine.memoryTool})\n`,
);
console.log(summary);
console.log("");
for (const line of detailLines) console.log(line);
console.log("\nCross-checks:");
for (const line of checks) console.log(`  ${line}`);
for (const section of investigationSections) {
  console.log(`\n${section.title}\n${textTable(section.headers, section.rows)}`);
}
if (findings.length > 0) {
  console.log("\nFindings:");
  for (const f of findings) console.log(`  - ${f}`);
}
console.log(
  `\nCPU pressure avg60 (some) at start/end: ${machine.pressureStart ?? "n/a"}% / ${machine.pressureEnd ?? "n/a"}%; ` +
    `load average ${machine.loadStart} / ${machine.loadEnd}. Whole run ${totalSeconds.toFixed(0)} s.`,
);

const md = [
  "# ragci benchmark results",
  "",
  `Generated by \`node bench/analyze.mjs\` on ${machine.date}.`,
  "",
  `- Machine: \`nproc\` = ${machine.nproc}, ${machine.cpu}, ${machine.memGb} GiB RAM`,
  `- Build under test: \`${distLabel}/\` (commit ${gitHead}); Node ${machine.node}; DuckDB ${machine.duckdb} (@duckdb/node-api)`,
  `- numpy ${machine.numpy} (\`${NUMPY_PY}\`, OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset)`,
  `- pandas ${machine.pandas} with numpy ${machine.pandasNumpy} (\`${PANDAS_PY}\`)`,
  `- Times: median (min) of ${REPEATS} runs; whole processes timed from spawn to exit. Ratio = reference / ragci (> 1: ragci faster). Peak memory: ${machine.memoryTool}.`,
  `- Reproduce: \`npm run bench -- --snapshot\` (or \`node bench/analyze.mjs\` on the current dist/).`,
  `- Inputs (seeded, in bench/out/): K = 10⁶ and 10⁴ per-document CSVs \`doc,n,s\` with n_d = 1 + ⌊lognormal(1, 1)⌋; ` +
    `a ${ROWS.toLocaleString("en")}-row per-query CSV \`doc_id,query_id,hit\` (${csvMb.toFixed(0)} MB) over ` +
    `${ROW_DOCS.toLocaleString("en")} documents with lognormal(σ = 1.5) sizes, and its Parquet copy (${parquetMb.toFixed(0)} MB).`,
  `- CPU pressure (avg60, some) ${machine.pressureStart ?? "n/a"}% at start, ${machine.pressureEnd ?? "n/a"}% at end; ` +
    `load average ${machine.loadStart} / ${machine.loadEnd}${staleDist ? "; note: the build was older than its src/" : ""}.`,
  "",
  markdownTable(headers, tableRows),
  "",
  ...detailLines.map((l) => `- ${l}`),
  "",
  "Cross-checks:",
  "",
  ...checks.map((l) => `- ${l}`),
  ...investigationSections.flatMap((sec) => [
    "",
    `### ${sec.title}`,
    "",
    markdownTable(sec.headers, sec.rows),
  ]),
  ...(findings.length > 0 ? ["", "### Findings", "", ...findings.map((f) => `- ${f}`)] : []),
  "",
  `Whole benchmark run: ${totalSeconds.toFixed(0)} s.`,
  "",
].join("\n");
writeFileSync(path.join(ROOT, "bench", "RESULTS.md"), md);
console.log("\nwrote bench/RESULTS.md");
