// Coverage of the faceted intervals (issue 28's Evidence): binary outcomes, 30 documents ×
// 4 queries, logit p = α + a_d + b_dq + c_j (+ e_dj), a ~ N(0, 0.5²), b ~ N(0, 0.5²), judges
// c ~ N(0, 0.5²). Three settings:
//   random  — 3 judges drawn afresh each repetition; truth = the judge-population mean
//             E[expit(α + a + b + c)] (Gauss–Hermite);
//   fixed   — the same 3 judges every repetition; truth = their mean (1/J) Σ_j E[expit(α + a + b + c_j)];
//   reruns  — no judges, 3 reruns per query; truth = E[expit(α + a + b)];
//   alike   — 3 judges without spread (c = 0): both estimands are E[expit(α + a + b)].
// Intervals: facetInterval's fixed (document-level CR2) one, its recommended population one
// (the union of the next two), its REML one (lmerTest's Satterthwaite ν) and its spread one
// (CR2 variance + s²_judge/J, Satterthwaite ν: the numpy orientation), and the last two
// with t(J − 1).
// Usage: node bench/facets-coverage.mjs [reps=400] [seed=20261206] [settings=random,fixed,reruns,alike]
//   (after npm run build;
//   RAGCI_BENCH_DIST=DIR for another build). Prints a markdown table (docs/facets.md).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = process.env.RAGCI_BENCH_DIST ?? join(root, "dist");
const { facetInterval } = await import(pathToFileURL(join(dist, "core/index.js")).href);
const { tQuantile, expit } = await import(
  pathToFileURL(join(dist, "core/numeric/distributions.js")).href
);

const REPS = Number(process.argv[2] ?? 400);
const SEED = Number(process.argv[3] ?? 20261206);
const LEVEL = 0.95;
const D = 30;
const Q = 4;
const J = 3;
const ALPHA = 0;
const SD = { document: 0.5, query: 0.5, judge: 0.5, documentJudge: 0 };

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function normalSource(rand) {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

// E[expit(m + s Z)], Z ~ N(0, 1), by 80-point Gauss–Hermite (probabilists') on a fine grid.
function meanExpit(m, s) {
  let total = 0;
  let weight = 0;
  for (let i = -4000; i <= 4000; i++) {
    const z = i / 500;
    const w = Math.exp((-z * z) / 2);
    total += w * expit(m + s * z);
    weight += w;
  }
  return total / weight;
}

function simulate(setting, rand, normal, fixedJudges) {
  const judges = setting === "reruns" ? 1 : J;
  const trials = setting === "reruns" ? 3 : 1;
  const c =
    setting === "random"
      ? Array.from({ length: J }, () => SD.judge * normal())
      : setting === "alike"
        ? [0, 0, 0]
        : fixedJudges;
  const cells = {
    document: [],
    query: [],
    judge: setting === "reruns" ? null : [],
    n: [],
    sum: [],
    within: [],
  };
  for (let d = 0; d < D; d++) {
    const a = SD.document * normal();
    const e = Array.from({ length: judges }, () => SD.documentJudge * normal());
    for (let q = 0; q < Q; q++) {
      const b = SD.query * normal();
      for (let j = 0; j < judges; j++) {
        const p = expit(ALPHA + a + b + (setting === "reruns" ? 0 : c[j] + e[j]));
        let s = 0;
        for (let t = 0; t < trials; t++) s += rand() < p ? 1 : 0;
        cells.document.push(d);
        cells.query.push(d * Q + q);
        cells.judge?.push(j);
        cells.n.push(trials);
        cells.sum.push(s);
        cells.within.push(s - (s * s) / trials); // Σ (y − ȳ)² of 0/1 values
      }
    }
  }
  return {
    document: Int32Array.from(cells.document),
    query: Int32Array.from(cells.query),
    judge: cells.judge ? Int32Array.from(cells.judge) : null,
    variant: null,
    n: Float64Array.from(cells.n),
    sum: Float64Array.from(cells.sum),
    withinSumOfSquares: Float64Array.from(cells.within),
    labels: {
      documents: Array.from({ length: D }, (_, d) => `doc${d}`),
      judges: cells.judge ? ["j0", "j1", "j2"] : null,
      variants: null,
    },
  };
}

const ALL_SETTINGS = ["random", "fixed", "reruns", "alike"];
const settings = (process.argv[4] ?? ALL_SETTINGS.join(",")).split(",");
const rows = [];
const started = performance.now();
for (const setting of settings) {
  const rand = mulberry32(SEED + ALL_SETTINGS.indexOf(setting));
  const normal = normalSource(rand);
  const fixedJudges = Array.from({ length: J }, () => SD.judge * normal());
  const total = Math.sqrt(SD.document ** 2 + SD.query ** 2);
  const truth =
    setting === "random"
      ? meanExpit(ALPHA, Math.sqrt(total ** 2 + SD.judge ** 2 + SD.documentJudge ** 2))
      : setting === "fixed"
        ? fixedJudges.reduce(
            (x, c) => x + meanExpit(ALPHA + c, Math.sqrt(total ** 2 + SD.documentJudge ** 2)),
            0,
          ) / J
        : meanExpit(
            ALPHA,
            Math.sqrt(total ** 2 + (setting === "alike" ? SD.documentJudge ** 2 : 0)),
          );
  const tally = new Map();
  const add = (name, lower, upper) => {
    const t = tally.get(name) ?? { covered: 0, width: 0, n: 0 };
    t.covered += lower <= truth && truth <= upper ? 1 : 0;
    t.width += upper - lower;
    t.n += 1;
    tally.set(name, t);
  };
  for (let r = 0; r < REPS; r++) {
    const cells = simulate(setting, rand, normal, fixedJudges);
    const result = facetInterval(cells, { level: LEVEL });
    const add2 = (name, e, q = null) => {
      if (!e) return;
      const half = q === null ? null : q * e.interval.se;
      add(
        name,
        half === null ? e.interval.lower : e.estimate - half,
        half === null ? e.interval.upper : e.estimate + half,
      );
    };
    add2("documents only (these judges; CR2)", result.fixed);
    add2("recommended: union of the two below", result.population);
    add2("REML, Satterthwaite ν as lmerTest", result.reml);
    add2("CR2 + s²_J/J, Satterthwaite ν", result.spread);
    const qJ = tQuantile(1 - (1 - LEVEL) / 2, J - 1);
    add2("REML se, t(J − 1)", result.reml, qJ);
    add2("CR2 + s²_J/J, t(J − 1)", result.spread, qJ);
  }
  for (const [name, t] of tally) {
    const coverage = t.covered / t.n;
    rows.push({
      setting,
      name,
      coverage,
      mcse: Math.sqrt((coverage * (1 - coverage)) / t.n),
      width: t.width / t.n,
      n: t.n,
    });
  }
  process.stderr.write(
    `${setting}: done (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
  );
}
console.log(
  `${REPS} repetitions per setting, seed ${SEED}, level ${LEVEL}; D = ${D}, Q = ${Q}, J = ${J}, binary outcomes\n`,
);
console.log("| setting | interval | coverage | ± MC se | mean width |");
console.log("|---|---|---:|---:|---:|");
for (const r of rows)
  console.log(
    `| ${r.setting} | ${r.name} | ${(100 * r.coverage).toFixed(1)}% | ${(100 * r.mcse).toFixed(1)} | ${r.width.toFixed(3)} |`,
  );
