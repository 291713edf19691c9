// The REML fit alone, by size (issue 28): CPU seconds of remlFit (the θ search) and of
// interceptSatterthwaite (the intercept's ν) on facet cells built here, without ingestion.
// Layout as bench/facets-ingest.mjs: documents × 25 queries × 4 judges, 100 reruns of a 0/1
// score per cell (the cell's sum drawn from a deterministic hash, no RNG state). Runs the built
// library (npm run build first).
//   node bench/facets-fit.mjs [--documents 4,96,1020,5000]
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const load = (p) => import(pathToFileURL(path.join(ROOT, "dist", "core", "facets", p)).href);
const { remlFit } = await load("remlFit.js");
const { interceptSatterthwaite } = await load("interceptSatterthwaite.js");

const at = process.argv.indexOf("--documents");
const SIZES = at > 0 ? process.argv[at + 1].split(",").map(Number) : [4, 96, 1020];
const QUERIES = 25;
const JUDGES = 4;
const RERUNS = 100;

/**
 * A hash of i (Wang's 32-bit mix) scaled by 2⁻³², so the cells are the same on every run. The
 * last xor leaves a signed 32-bit integer, so the values lie in (−½, ½), not [0, 1): the
 * probabilities below are clipped to [0.02, 0.98] and the noise is biased downwards. Kept as it
 * is, so that the figures docs/performance.md gives for this bench stay reproducible.
 */
function unit(i) {
  let x = (i ^ 61 ^ (i >>> 16)) >>> 0;
  x = (x + (x << 3)) >>> 0;
  x ^= x >>> 4;
  x = Math.imul(x, 0x27d4eb2d) >>> 0;
  x ^= x >>> 15;
  return x / 2 ** 32;
}

function cells(documents) {
  const count = documents * QUERIES * JUDGES;
  const document = new Int32Array(count);
  const query = new Int32Array(count);
  const judge = new Int32Array(count);
  const n = new Float64Array(count).fill(RERUNS);
  const sum = new Float64Array(count);
  const withinSumOfSquares = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    const d = Math.floor(c / (QUERIES * JUDGES));
    const q = Math.floor(c / JUDGES);
    const j = c % JUDGES;
    // p = document effect + judge effect + query noise, clipped to [0.02, 0.98].
    const p = Math.min(0.98, Math.max(0.02, 0.2 + 0.5 * unit(d) + 0.05 * j + 0.2 * unit(1e7 + q)));
    const s = Math.min(RERUNS, Math.max(0, Math.round(RERUNS * p + 6 * (unit(2e7 + c) - 0.5))));
    document[c] = d;
    query[c] = q;
    judge[c] = j;
    sum[c] = s;
    withinSumOfSquares[c] = s - (s * s) / RERUNS; // 0/1 trials: Σ (y − ȳ)² = s − s²/n
  }
  const labels = {
    documents: Array.from({ length: documents }, (_, d) => `d${d}`),
    judges: Array.from({ length: JUDGES }, (_, j) => `j${j}`),
    variants: null,
  };
  return { document, query, judge, variant: null, n, sum, withinSumOfSquares, labels };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

console.log("| cells | remlFit CPU | Satterthwaite ν CPU | θ̂ | ν |");
console.log("|---|---|---|---|---|");
for (const documents of SIZES) {
  const c = cells(documents);
  const t0 = cpu();
  const fit = remlFit(c);
  const t1 = cpu();
  const df = interceptSatterthwaite(fit);
  const t2 = cpu();
  console.log(
    `| ${c.n.length.toLocaleString("en")} | ${(t1 - t0).toFixed(2)} s | ${(t2 - t1).toFixed(2)} s | ${Array.from(fit.theta, (x) => x.toPrecision(6)).join(", ")} | ${df.toPrecision(6)} |`,
  );
}
