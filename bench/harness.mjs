// The timing harness of bench/analyze.mjs: which build is under test, how processes and
// in-process work are timed (median and min of REPEATS runs, peak memory), the Python
// references in bench/py/, and the formatting of times. Each case in bench/cases/ receives
// the context `createContext` builds and adds its rows, cross-checks and findings to it.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildCommit, buildUnderTest, newestMtime, OUT, ROOT } from "./build.mjs";

export { OUT, ROOT };

export const REPEATS = 3;
const PY = path.join(ROOT, "bench", "py");
const PROBE = path.join(ROOT, "bench", "probe.mjs");
const started = performance.now();

// ---------------------------------------------------------------- numbers and text

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function fmtTime(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 1e-3) return `${(seconds * 1e6).toFixed(0)} µs`;
  if (seconds < 1) return `${(seconds * 1e3).toFixed(seconds < 0.1 ? 1 : 0)} ms`;
  if (seconds < 100) return `${seconds.toFixed(2)} s`;
  return `${seconds.toFixed(0)} s${seconds >= 600 ? ` (${(seconds / 60).toFixed(0)} min)` : ""}`;
}
export const fmtTimed = (t) => (t ? `${fmtTime(t.median)} (min ${fmtTime(t.min)})` : "—");
export const fmtMb = (mb) => (mb === null || mb === undefined ? "—" : `${Math.round(mb)} MB`);
export const fmtRatio = (r) =>
  r === null || !Number.isFinite(r) ? "—" : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
export const relDiff = (a, b) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));

export function log(message) {
  const t = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[${t} s] ${message}\n`);
}

export const elapsedSeconds = () => (performance.now() - started) / 1000;

// ---------------------------------------------------------------- timing

/** Median and min over `repeats` runs of an in-process function (after `warmup` runs). */
export function timeInProcess(work, { repeats = REPEATS, warmup = 1 } = {}) {
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
export const MEMORY_TOOL = TIME
  ? "/usr/bin/time -f %M (getrusage ru_maxrss of the child)"
  : "VmHWM polling";

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
export async function runOnce(command, args, { env = process.env, stdoutFile } = {}) {
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

/** Median, min and largest peak RSS of whole-process runs. */
function processSummary(runs) {
  const times = runs.map((r) => r.seconds);
  return {
    median: median(times),
    min: Math.min(...times),
    times,
    rssMb: Math.max(...runs.map((r) => r.rssKb)) / 1024,
  };
}

/** REPEATS runs of a whole process: median and min wall time, the largest peak RSS. */
export async function timeProcess(label, command, args, options = {}) {
  const runs = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await runOnce(command, args, options));
  const t = processSummary(runs);
  log(`  ${label}: ${fmtTimed(t)}, peak ${fmtMb(t.rssMb)}`);
  return t;
}

/**
 * One run with a time limit (for the default bootstrap, which may take minutes): the child is
 * spawned directly, without /usr/bin/time, so that SIGKILL at the limit reaches it.
 */
export function runWithTimeout(command, args, seconds) {
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

/**
 * A row for the CLI's default command (B = 9999 bootstrap), run once under DEFAULT_TIMEOUT_S;
 * when killed, the time the bootstrap would take is extrapolated from case 1's cost per draw.
 */
export function defaultRow(row, args, estimate) {
  const r = runWithTimeout(process.execPath, args, DEFAULT_TIMEOUT_S);
  const extrapolated = estimate === null ? "" : ` ≈ ${fmtTime(estimate)} extrapolated`;
  log(`  ${row.case}: ${r.killed ? `killed at ${r.limit} s` : fmtTime(r.seconds)}`);
  return {
    ...row,
    ragci: r.killed ? null : { median: r.seconds, min: r.seconds },
    ragciText: r.killed
      ? `> ${r.limit} s (killed;${extrapolated})`
      : `${fmtTime(r.seconds)} (1 run)`,
    ratioText: r.killed ? `< ${fmtRatio(row.reference.median / r.limit)}` : null,
    met: !r.killed && row.reference.median / r.seconds >= (row.target.startsWith("≥ 4") ? 4 : 1),
  };
}
const DEFAULT_TIMEOUT_S = 15;

// ---------------------------------------------------------------- environment

/** The interpreter behind a name (pyenv's python3 is a shell shim, not to be timed). */
function pythonInterpreter(name) {
  return execFileSync(name, ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  }).trim();
}

function cpuPressure() {
  try {
    return /avg60=([\d.]+)/.exec(readFileSync("/proc/pressure/cpu", "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
}

async function duckdbVersion() {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const version = (await connection.runAndReadAll("SELECT version()")).getRowsJS()[0][0];
  connection.closeSync();
  instance.closeSync();
  return version;
}

/**
 * Everything a case needs: the build (its CLI, its core module), the Python interpreters and
 * their environment (OpenBLAS tuning variables removed), what the run found so far, and the
 * machine it runs on.
 */
export async function createContext(argv) {
  const dist = buildUnderTest(argv);
  // The entry users run (package.json "bin", the bundle); a build from before it, its main.js.
  const bundled = path.join(dist, "bundle", "ragci.js");
  const cli = existsSync(bundled) ? bundled : path.join(dist, "cli", "main.js");
  if (!existsSync(cli)) {
    console.error(`bench: ${cli} is missing; build first: npx tsc -p tsconfig.build.json`);
    process.exit(2);
  }
  mkdirSync(OUT, { recursive: true });
  const pyEnv = { ...process.env };
  delete pyEnv.OPENBLAS_CORETYPE;
  delete pyEnv.OPENBLAS_L2_SIZE;
  const numpyPython = pythonInterpreter("python3");
  const pandasPython = "/usr/bin/python3";
  const version = (python, code) =>
    execFileSync(python, ["-c", code], { encoding: "utf8", env: pyEnv }).trim();
  const [pandas, pandasNumpy] = version(
    pandasPython,
    "import pandas, numpy; print(pandas.__version__, numpy.__version__)",
  ).split(" ");
  const srcDir = path.join(dist, "..", "src");
  const machine = {
    date: new Date()
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, " UTC"),
    nproc: execFileSync("nproc", { encoding: "utf8" }).trim(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memGb: (os.totalmem() / 2 ** 30).toFixed(0),
    node: process.version,
    numpy: version(numpyPython, "import numpy; print(numpy.__version__)"),
    pandas,
    pandasNumpy,
    duckdb: await duckdbVersion(),
    numpyPython,
    pandasPython,
    memoryTool: MEMORY_TOOL,
    pressureStart: cpuPressure(),
    loadStart: os.loadavg()[0].toFixed(2),
    staleDist: existsSync(srcDir) && newestMtime(srcDir, ".ts") > newestMtime(dist, ".js"),
  };
  if (machine.staleDist)
    log(`warning: some src/ file is newer than ${dist}; results are for that build`);
  log(
    `node ${machine.node}, numpy ${machine.numpy}, pandas ${machine.pandas}, DuckDB ${machine.duckdb}`,
  );
  const pandasParquet = ["pyarrow", "fastparquet"].some(
    (m) => spawnSync(pandasPython, ["-c", `import ${m}`], { env: pyEnv }).status === 0,
  );
  return {
    dist,
    distLabel: path.relative(ROOT, dist) || ".",
    commit: buildCommit(dist),
    cli,
    // ragci/core, and what the bench times or the investigation reads that is not in its surface:
    // cr2's ν alone and two diagnostics.
    core: {
      ...(await import(pathToFileURL(path.join(dist, "core", "index.js")).href)),
      ...(await import(
        pathToFileURL(path.join(dist, "core", "variance", "cr2DegreesOfFreedom.js")).href
      )),
      ...(await import(
        pathToFileURL(path.join(dist, "core", "diagnostics", "rateDistribution.js")).href
      )),
      ...(await import(
        pathToFileURL(path.join(dist, "core", "diagnostics", "sizeDistribution.js")).href
      )),
    },
    investigate: !argv.includes("--skip-investigation"),
    machine,
    pandasParquet,
    /** The comparison table, the cross-checks, the details under the table, the findings. */
    rows: [],
    checks: [],
    details: [],
    sections: [],
    findings: [],
    /** Runs bench/py/NAME with numpy's interpreter (or pandas'), REPEATS times as a process. */
    async python(name, args, { pandas: usePandas = false } = {}) {
      const interpreter = usePandas ? pandasPython : numpyPython;
      const stdoutFile = path.join(OUT, `${path.basename(name, ".py")}.json`);
      const runs = [];
      const outputs = [];
      for (let i = 0; i < REPEATS; i++) {
        runs.push(
          await runOnce(interpreter, [path.join(PY, name), ...args], { env: pyEnv, stdoutFile }),
        );
        outputs.push(JSON.parse(readFileSync(stdoutFile, "utf8")));
      }
      return { process: processSummary(runs), outputs };
    },
    /** Runs bench/py/NAME once (it times its own work): its JSON output. */
    pythonOnce(name, args) {
      return JSON.parse(
        execFileSync(numpyPython, [path.join(PY, name), ...args], { encoding: "utf8", env: pyEnv }),
      );
    },
    /** bench/probe.mjs on this build: one JSON line of timings. */
    probe(args) {
      const out = execFileSync(process.execPath, [PROBE, ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, RAGCI_BENCH_DIST: dist },
      });
      return JSON.parse(out.trim().split("\n").at(-1));
    },
    finish() {
      machine.pressureEnd = cpuPressure();
      machine.loadEnd = os.loadavg()[0].toFixed(2);
    },
  };
}
