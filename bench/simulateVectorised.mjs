// Issue 12's simulate speed target, against a vectorised numpy study: `ragci simulate` on the
// synthetic census, K = 20, 5000 repetitions, B = 999, every default method, 2 threads, whole
// process, vs bench/simulate_vectorised.py (the same study and streams, each block of
// repetitions vectorised over its (block, B, K) bootstrap draws, 2 processes), also a whole
// process. Runs alternate, 3 each; the table gives medians (and mins). The two coverage tables
// come from the same streams, so every method's covered count must agree exactly: checked.
// Target: ragci at least 2× faster (ratio numpy / ragci ≥ 2).
// Usage: node bench/simulateVectorised.mjs   (after npm run build; python3 with numpy, scipy)
//   RAGCI_BENCH_DIST=DIR for another build than dist/; PYTHON=... for another interpreter.
// If dist/cli/main.js has no `simulate` command it prints "ragci simulate not available",
// times the numpy study alone and exits 0.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench/out");
mkdirSync(out, { recursive: true });
const [K, REPS, B, SEED, RUNS] = [20, 5000, 999, 1, 3];
// The target is on 2 threads / processes; 1 of each shows the work per core without scaling.
const THREAD_COUNTS = [2, 1];
const CENSUS = join(root, "examples/synthetic-census.csv");
// The entry users run (package.json "bin", the bundle); a build from before it, its bin.js.
const DIST = resolve(root, process.env.RAGCI_BENCH_DIST ?? "dist");
const CLI = existsSync(join(DIST, "bundle/ragci.js"))
  ? join(DIST, "bundle/ragci.js")
  : join(DIST, "cli/bin.js");
const STUDY = join(root, "bench/simulate_vectorised.py");

// pyenv's python3 is a shell shim: time the real interpreter. OpenBLAS tuning variables are
// removed, as in bench/analyze.mjs.
const python = execFileSync(
  process.env.PYTHON ?? "python3",
  ["-c", "import sys; print(sys.executable)"],
  {
    encoding: "utf8",
  },
).trim();
const pyEnv = { ...process.env };
delete pyEnv.OPENBLAS_CORETYPE;
delete pyEnv.OPENBLAS_L2_SIZE;
const versions = execFileSync(
  python,
  ["-c", "import numpy, scipy; print(numpy.__version__, scipy.__version__)"],
  {
    encoding: "utf8",
    env: pyEnv,
  },
).trim();

function timed(command, args, env = process.env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: "utf8", env, cwd: root, maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")}: exit ${result.status}\n${result.stderr}`);
  return { seconds, stdout: result.stdout };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(2)} s (min ${Math.min(...xs).toFixed(2)} s)`;

const simulateAvailable =
  existsSync(CLI) &&
  spawnSync(process.execPath, [CLI, "simulate", "--help"], { stdio: "ignore" }).status === 0;
if (!simulateAvailable) console.log("ragci simulate not available");

const tmp = mkdtempSync(join(os.tmpdir(), "ragci-simulate-"));
const studyFile = join(tmp, "simulate.json");
const ragciArgs = (threads) => [
  CLI,
  "simulate",
  CENSUS,
  "--aggregated",
  "--k",
  String(K),
  "--reps",
  String(REPS),
  "--replicates",
  String(B),
  "--seed",
  String(SEED),
  "--threads",
  String(threads),
  "--json",
  "-o",
  studyFile,
];
const numpyArgs = (processes) => [
  STUDY,
  "--processes",
  String(processes),
  "--k",
  String(K),
  "--reps",
  String(REPS),
  "--replicates",
  String(B),
  "--seed",
  String(SEED),
  "--json",
];
const runs = new Map(THREAD_COUNTS.map((n) => [n, { ragci: [], numpy: [] }]));
let numpyStudy = null;
let ragciStudy = null;
try {
  for (let i = 0; i < RUNS; i++) {
    for (const threads of THREAD_COUNTS) {
      const r = runs.get(threads);
      if (simulateAvailable) r.ragci.push(timed(process.execPath, ragciArgs(threads)).seconds);
      const numpy = timed(python, numpyArgs(threads), pyEnv);
      r.numpy.push(numpy.seconds);
      numpyStudy = JSON.parse(numpy.stdout.trim().split("\n").at(-1));
    }
  }
  if (simulateAvailable) ragciStudy = JSON.parse(readFileSync(studyFile, "utf8"));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// ---- what a second busy core gives each: one 1-thread run alone, then two at once (each
// its own process), for ragci and for numpy. On a machine whose two CPUs share one core's
// execution units, compute-bound code slows down by up to 2× when both run; memory-bound code
// much less.
function together(command, args, env) {
  const started = process.hrtime.bigint();
  const children = [0, 1].map(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn(command, args, { env, cwd: root, stdio: "ignore" });
        child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
      }),
  );
  return Promise.all(children).then(() => Number(process.hrtime.bigint() - started) / 1e9);
}
const oneThread = ragciArgs(1).slice(0, -2); // without -o: both runs write to stdout (ignored)
const concurrency = {
  ragciAlone: median([0, 1, 2].map(() => timed(process.execPath, oneThread).seconds)),
  ragciTwo: median([
    await together(process.execPath, oneThread),
    await together(process.execPath, oneThread),
  ]),
  numpyAlone: median([0, 1, 2].map(() => timed(python, numpyArgs(1), pyEnv).seconds)),
  numpyTwo: median([
    await together(python, numpyArgs(1), pyEnv),
    await together(python, numpyArgs(1), pyEnv),
  ]),
};

// ---- coverage counts, method by method (ragci's coverage = covered / reps exactly)
const study = ragciStudy?.studies?.find((s) => s.k === K) ?? null;
const countRows = [];
const disagreements = [];
for (const [method, count] of Object.entries(numpyStudy.covered)) {
  const score = study?.methods?.[method];
  const ragciCount = score ? Math.round(score.coverage * REPS) : null;
  if (study && ragciCount !== count) disagreements.push(method);
  countRows.push(
    `| ${method} | ${ragciCount ?? "—"} | ${count} | ${(count / REPS).toFixed(4)} | ${study ? (ragciCount === count ? "=" : "DIFFER") : ""} |`,
  );
}
if (study) {
  for (const method of Object.keys(study.methods)) {
    if (!(method in numpyStudy.covered))
      countRows.push(
        `| ${method} | ${Math.round(study.methods[method].coverage * REPS)} | — | | not in the numpy study |`,
      );
  }
}
const mismatch = study && (study.reps !== REPS || study.replicates !== B || study.seed !== SEED);

const coverageCell = !study
  ? "—"
  : disagreements.length === 0
    ? `all ${Object.keys(numpyStudy.covered).length} equal`
    : `DIFFER: ${disagreements.join(", ")}`;
const text = [
  `simulate vs a vectorised numpy study — ${new Date().toISOString().slice(0, 19).replace("T", " ")} UTC, nproc ${os.availableParallelism()}, ${os.cpus()[0]?.model ?? "?"}, node ${process.version}, numpy/scipy ${versions} (${python})`,
  `synthetic census, K = ${K}, ${REPS} repetitions, B = ${B}, seed ${SEED}; whole processes, median (min) of ${RUNS} alternating runs; ratio = numpy / ragci (target ≥ 2× on 2 threads / processes)`,
  "",
  "| case | ragci simulate | numpy study (bench/simulate_vectorised.py) | ratio (numpy / ragci) | target ≥ 2× | coverage counts |",
  "|---|---:|---:|---:|---|---|",
  ...THREAD_COUNTS.map((threads) => {
    const r = runs.get(threads);
    const ratio = simulateAvailable ? median(r.numpy) / median(r.ragci) : null;
    const verdict = threads !== 2 || ratio === null ? "—" : ratio >= 2 ? "met" : "NOT met";
    return `| K = ${K}, ${REPS} reps, B = ${B}, ${threads} thread${threads > 1 ? "s" : ""} / process${threads > 1 ? "es" : ""} | ${simulateAvailable ? fmt(r.ragci) : "not available"} | ${fmt(r.numpy)} | ${ratio === null ? "—" : `${ratio.toFixed(2)}×`} | ${verdict} | ${coverageCell} |`;
  }),
  "",
  `Two 1-thread runs at once (separate processes) against one alone: ragci ${concurrency.ragciAlone.toFixed(2)} s alone, ${concurrency.ragciTwo.toFixed(2)} s for both (each ${((concurrency.ragciTwo / concurrency.ragciAlone - 1) * 100).toFixed(0)}% slower); numpy ${concurrency.numpyAlone.toFixed(2)} s alone, ${concurrency.numpyTwo.toFixed(2)} s for both (${((concurrency.numpyTwo / concurrency.numpyAlone - 1) * 100).toFixed(0)}% slower).`,
  "",
  "| method | ragci covered | numpy covered | coverage | |",
  "|---|---:|---:|---:|---|",
  ...countRows,
  "",
  ...(mismatch
    ? [
        `warning: ragci's JSON reports reps ${study.reps}, B ${study.replicates}, seed ${study.seed}`,
        "",
      ]
    : []),
].join("\n");
writeFileSync(join(out, "simulate-vectorised.md"), text);
process.stdout.write(text);
if (disagreements.length > 0 || mismatch) process.exitCode = 1;
