// Issue 12's simulate speed target: `ragci simulate` on the synthetic census, K = 20, 5000
// repetitions, B = 999, 2 threads, whole process, against bench/simulate_numpy.py (the same
// study and streams, each repetition vectorised over its B×K draws, 2 processes). Median of 3
// runs each; the two coverage counts must agree exactly (same streams), which is checked.
// Usage: node bench/simulate.mjs   (after npm run build; python3 with numpy and scipy)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench/out");
mkdirSync(out, { recursive: true });
const [K, REPS, B, THREADS] = [20, 5000, 999, 2];

function timed(command, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`${command}: ${result.stderr}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, stdout: result.stdout };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const studyFile = join(out, "simulate.json");
const ragciRuns = [];
const numpyRuns = [];
let numpyCovered = null;
for (let i = 0; i < 3; i++) {
  ragciRuns.push(
    timed(process.execPath, [join(root, "dist/cli/main.js"), "simulate", join(root, "examples/synthetic-census.csv"), "--aggregated", "--k", String(K), "--reps", String(REPS), "--replicates", String(B), "--threads", String(THREADS), "--json", "-o", studyFile]).seconds,
  );
  const numpy = timed(process.env.PYTHON ?? "python3", [join(root, "bench/simulate_numpy.py"), String(K), String(REPS), String(B), String(THREADS)]);
  numpyRuns.push(numpy.seconds);
  numpyCovered = JSON.parse(numpy.stdout).covered;
}
const methods = JSON.parse(readFileSync(studyFile, "utf8")).studies[0].methods;
const disagreements = Object.entries(numpyCovered).filter(
  ([key, count]) => Math.round(methods[key].coverage * REPS) !== count,
);
const ragci = median(ragciRuns);
const numpy = median(numpyRuns);
const text = [
  `| case | ragci simulate | numpy study | ratio (numpy / ragci) | coverage counts |`,
  `|---|---:|---:|---:|---|`,
  `| synthetic census, K = ${K}, ${REPS} repetitions, B = ${B}, ${THREADS} threads / processes | ${ragci.toFixed(2)} s | ${numpy.toFixed(2)} s | ${(numpy / ragci).toFixed(2)}× | ${disagreements.length === 0 ? `all ${Object.keys(numpyCovered).length} equal` : `DIFFER: ${disagreements.map(([k]) => k).join(", ")}`} |`,
  "",
].join("\n");
writeFileSync(join(out, "simulate.md"), text);
process.stdout.write(text);
if (disagreements.length > 0) process.exitCode = 1;
