// A calibrated `logit-cv3` (docs/choosing-an-interval.md, "A calibrated logit-cv3"): can the
// nominal level of micro logit-cv3 be set from the sample, by the document bootstrap, so that
// the interval covers near 95% where logit-cv3 over-covers (and no less where it holds)?
//
// What is computed, for each sample (K documents, estimate R, logit-cv3's ν₃ and se_L):
// - one level (Loh 1987, "Calibrating confidence coefficients", JASA 82:155–162; Beran 1987,
//   "Prepivoting to reduce level error of confidence sets", Biometrika 74:457–468): B₁ document
//   resamples from the study's bootstrap stream of the repetition (spawn key (i, 1), the stream
//   `simulate` uses). On resample b, the logit-cv3 interval of the resample covers R at every
//   nominal level ≥ u_b = 2·F_t(|T_b|; ν₃,b) − 1, T_b = (logit R_b − logit R) / se_L,b (its own
//   V₃ and ν₃). The calibrated level is L₁ = the 95% quantile of the u_b, so that 95% of the
//   resamples' logit-cv3 intervals at L₁ cover R; the interval reported is ragci's logit-cv3 of
//   the sample at level L₁. logit-cv3 is closed-form, so its coverage in the bootstrap world
//   needs no second level of resampling: this is what a "double bootstrap" of logit-cv3 costs.
// - two levels (Hall & Martin 1988, "On bootstrap resampling and iteration", Biometrika
//   75:661–671; Beran 1987's iterated prepivoting): the one-level calibration is itself
//   calibrated. For each of the first B₂ outer resamples b, B_in inner resamples of resample b
//   (spawn key (i, 3, b)) give the inner roots u_bj (against R_b); v_b = the fraction of them
//   ≤ u_b, λ = the 95% quantile of the v_b, and L₂ = the λ quantile of the B₁ outer roots.
// A resample on which logit-cv3 does not exist (R_b = 0 or 1, or V₃ = 0) is left out, as the
// bootstrap-t leaves out degenerate replicates: the calibration is conditional on an interval
// existing. The fraction left out is kept in the results ("dropped"); `miss` is the one-level
// variant that counts such a resample as a miss at every level (u_b = 1).
// With the fpc: the Rao–Wu rescaling ragci's bootstraps use multiplies both a resample's
// deviation and its se by √(1 − K/M), so the roots, hence L₁ and L₂, are the same; the interval
// is logit-cv3 with the fpc at that level.
//
// Scored on the same samples (repetition i's SRS, spawn key (i, 0), as `simulate`): plain
// logit-cv3, logit and cr2 from ragci's analyzeIntervals. Writes calibrated.json, CALIBRATED.md
// and docs/choosing-an-interval.md's table between the calibrated-guide markers. Re-run with
// `nice -n 19 node bench/method-guide/calibrated.mjs` (after `npm run build`): REPS (500),
// B1 (999), B2 (199), BIN (99) set the cost; CELLS=census:K[:fpc],… runs a subset (APPEND=1
// adds it to calibrated.json), TIMING=1 measures one analysis, RENDER_ONLY=1 redraws the tables.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { writeGuideSection } from "./guideSection.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const dist = (p) => import(join(root, "dist", p));
const { analyzeIntervals } = await dist("core/analyzeIntervals.js");
const { logitCv3Interval } = await dist("core/intervals/logitCv3Interval.js");
const { sampleIndices, sampleStats } = await dist("core/simulation/sampleDocuments.js");
const { forEachResampleBlock } = await dist("core/bootstrap/resampleDocuments.js");
const { tTwoSidedPValue } = await dist("core/numeric/distributions.js");
const { cv3Variance } = await dist("core/variance/cv3.js");
const { cv3DegreesOfFreedom } = await dist("core/variance/cv3DegreesOfFreedom.js");

const reps = Number(process.env.REPS ?? 500);
const B1 = Number(process.env.B1 ?? 999);
const B2 = Number(process.env.B2 ?? 199);
const BIN = Number(process.env.BIN ?? 99);
const LEVEL = 0.95;
const SEED = 1;

/** A doc_id,n,s,ss census, in code-point order of its ids (as ragci ingests it). */
function aggregated(file) {
  const [, ...lines] = readFileSync(file, "utf8").trim().split(/\r?\n/);
  return census(lines.map((l) => l.split(",")).map(([id, n, s, ss]) => [id, +n, +s, +ss]));
}
/** BM25's per-document sums of one COVID-QA metric, from the per-query rows. */
function covid(metric) {
  const [head, ...lines] = readFileSync(join(root, "examples/covidqa-retrieval.csv"), "utf8")
    .trim()
    .split(/\r?\n/);
  const at = Object.fromEntries(head.split(",").map((name, i) => [name, i]));
  const docs = new Map();
  for (const line of lines) {
    const f = line.split(",");
    if (f[at.system] !== "bm25") continue;
    const x = Number(f[at[metric]]);
    const d = docs.get(f[at.doc_id]) ?? [f[at.doc_id], 0, 0, 0];
    d[1] += 1;
    d[2] += x;
    d[3] += x * x;
    docs.set(f[at.doc_id], d);
  }
  return census([...docs.values()]);
}
function census(rows) {
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const col = (j) => Float64Array.from(rows, (r) => r[j]);
  const n = col(1);
  const s = col(2);
  const ss = col(3);
  const binary = rows.every((r) => Number.isInteger(r[2]) && r[2] === r[3]);
  return { ids: rows.map((r) => r[0]), n, s, ss, binary, min: 0, max: 1 };
}

const CENSUSES = [
  [
    "synthetic",
    "synthetic census (bundled)",
    () => aggregated(join(root, "examples/synthetic-census.csv")),
  ],
  ["even", "even sizes", () => aggregated(join(here, "censuses/even.csv"))],
  ["heavy", "heavy tail", () => aggregated(join(here, "censuses/heavy.csv"))],
  ["heavier", "heavier tail", () => aggregated(join(here, "censuses/heavier.csv"))],
  ["pareto", "power-law tail", () => aggregated(join(here, "censuses/pareto.csv"))],
  ["covidqa-hit5", "COVID-QA hit@5", () => covid("hit5")],
  ["covidqa-rr", "COVID-QA RR", () => covid("rr")],
].map(([name, label, load]) => ({ name, label, stats: load() }));

/**
 * The root of a resample (rows of `block` index the sample's documents): the smallest nominal
 * level at which the resample's logit-cv3 interval covers `target`, or NaN where logit-cv3 does
 * not exist on the resample. V₃ and ν₃ as src/core/variance/cv3.ts and cv3DegreesOfFreedom.ts
 * (plain sums: the resample's documents are few). Also returns the resample's R in ratio[0].
 */
function resampleRoot(n, s, block, at, k, target, ratio) {
  let N = 0;
  let S = 0;
  const n0 = n[block[at]];
  const s0 = s[block[at]];
  let allEqual = true;
  for (let j = at; j < at + k; j++) {
    const d = block[j];
    N += n[d];
    S += s[d];
    if (allEqual && s[d] * n0 !== s0 * n[d]) allEqual = false;
  }
  const R = S / N;
  ratio[0] = R;
  if (allEqual || R <= 0 || R >= 1) return Number.NaN;
  let shifts = 0;
  let sumK = 0;
  let sumK2 = 0;
  let cross = 0;
  let prefix = 0;
  for (let j = at; j < at + k; j++) {
    const d = block[j];
    const rest = N - n[d];
    const shift = (s[d] - R * n[d]) / rest;
    shifts += shift * shift;
    const h = n[d] / rest;
    const h2 = h * h;
    sumK += h;
    sumK2 += h2;
    cross += 2 * h2 * prefix;
    prefix += h2;
  }
  const v3 = ((k - 1) / k) * shifts;
  if (!(v3 > 0)) return Number.NaN;
  const df = (sumK * sumK) / (sumK2 + cross);
  const t =
    (Math.log(R / (1 - R)) - Math.log(target / (1 - target))) / (Math.sqrt(v3) / (R * (1 - R)));
  return 1 - tTwoSidedPValue(t, df);
}

/** The root again from ragci's own V₃ and ν₃ (a check of resampleRoot on the first resamples). */
function checkRoot(sample, row, target, u) {
  const drawn = {
    ...sample,
    ids: Array.from(row, (d, j) => `${sample.ids[d]}#${j}`),
    n: Float64Array.from(row, (d) => sample.n[d]),
    s: Float64Array.from(row, (d) => sample.s[d]),
    ss: Float64Array.from(row, (d) => sample.ss[d]),
  };
  const v3 = cv3Variance(drawn);
  const R = drawn.s.reduce((a, b) => a + b, 0) / drawn.n.reduce((a, b) => a + b, 0);
  if (!(v3 > 0) || R <= 0 || R >= 1) {
    if (!Number.isNaN(u)) throw new Error("resampleRoot: a root where logit-cv3 does not exist");
    return;
  }
  const t =
    (Math.log(R / (1 - R)) - Math.log(target / (1 - target))) / (Math.sqrt(v3) / (R * (1 - R)));
  const expected = 1 - tTwoSidedPValue(t, cv3DegreesOfFreedom(drawn));
  if (!(Math.abs(expected - u) < 1e-9)) throw new Error(`resampleRoot ${u} ≠ ragci's ${expected}`);
}

/** The p quantile of the finite values, the ⌈p·(B + 1)⌉-th smallest (capped at the largest). */
function quantile(values, p) {
  const sorted = Float64Array.from(values.filter((v) => !Number.isNaN(v))).sort();
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * (sorted.length + 1)) - 1))];
}

/** L₁ (dropping and counting as misses the resamples without logit-cv3) and L₂ of one sample. */
function calibratedLevels(sample, estimate, repetition, double) {
  const { n, s } = sample;
  const k = n.length;
  const roots = new Float64Array(B1);
  const ratios = new Float64Array(B1);
  const ratio = new Float64Array(1);
  const outerRows = double ? new Uint32Array(B2 * k) : null;
  forEachResampleBlock(
    SEED,
    k,
    B1,
    (block, rows, first) => {
      for (let r = 0; r < rows; r++) {
        roots[first + r] = resampleRoot(n, s, block, r * k, k, estimate, ratio);
        if (repetition === 0 && first + r < 20)
          checkRoot(sample, block.subarray(r * k, r * k + k), estimate, roots[first + r]);
        ratios[first + r] = ratio[0];
        if (outerRows && first + r < B2)
          outerRows.set(block.subarray(r * k, r * k + k), (first + r) * k);
      }
    },
    [repetition, 1],
  );
  const dropped = roots.filter(Number.isNaN).length / B1;
  const l1 = quantile(roots, LEVEL);
  const l1miss = quantile(
    roots.map((u) => (Number.isNaN(u) ? 1 : u)),
    LEVEL,
  );
  let l2 = Number.NaN;
  if (outerRows) {
    // v_b = Ĝ_b(u_b): where the outer root falls among resample b's own inner roots.
    const v = new Float64Array(B2).fill(Number.NaN);
    const inner = new Float64Array(BIN);
    const innerN = new Float64Array(k);
    const innerS = new Float64Array(k);
    for (let b = 0; b < B2; b++) {
      if (Number.isNaN(roots[b])) continue;
      for (let j = 0; j < k; j++) {
        innerN[j] = n[outerRows[b * k + j]];
        innerS[j] = s[outerRows[b * k + j]];
      }
      forEachResampleBlock(
        SEED,
        k,
        BIN,
        (block, rows, first) => {
          for (let r = 0; r < rows; r++)
            inner[first + r] = resampleRoot(innerN, innerS, block, r * k, k, ratios[b], ratio);
        },
        [repetition, 3, b],
      );
      let available = 0;
      let below = 0;
      for (const u of inner) {
        if (Number.isNaN(u)) continue;
        available++;
        if (u <= roots[b]) below++;
      }
      if (available > 0) v[b] = below / available;
    }
    const lambda = quantile(v, LEVEL);
    l2 = Number.isNaN(lambda) ? Number.NaN : quantile(roots, lambda);
  }
  return { l1, l1miss, l2, dropped };
}

/** Coverage of the truth, mean width and MC se over the repetitions (unavailable = a miss). */
function tally() {
  return { covered: 0, available: 0, width: 0, widthWithCr2: 0, cr2WidthWith: 0, ratios: [] };
}
function score(t, interval, truth, cr2) {
  if (!interval?.available || !Number.isFinite(interval.lower)) return;
  t.available++;
  if (interval.lower <= truth && truth <= interval.upper) t.covered++;
  t.width += interval.upper - interval.lower;
  t.widthWithCr2 += interval.upper - interval.lower;
  t.cr2WidthWith += cr2.upper - cr2.lower;
  t.ratios.push((interval.upper - interval.lower) / (cr2.upper - cr2.lower));
}
function summary(t) {
  const p = t.covered / reps;
  return {
    coverage: p,
    mcse: Math.sqrt((p * (1 - p)) / reps),
    available: t.available / reps,
    meanWidth: t.available ? t.width / t.available : null,
    widthOverCr2: t.available ? t.widthWithCr2 / t.cr2WidthWith : null,
    // Per sample width / cr2's width, its median: robust to the few very wide intervals.
    medianWidthOverCr2: t.ratios.length ? quantile(t.ratios, 0.5) : null,
  };
}

const METHODS = ["cr2", "logit", "logit-cv3", "calibrated-1", "calibrated-1-miss", "calibrated-2"];

function cell(c, k, fpc, double) {
  const started = process.cpuUsage();
  const M = c.stats.n.length;
  const truth = c.stats.s.reduce((a, b) => a + b, 0) / c.stats.n.reduce((a, b) => a + b, 0);
  const tallies = Object.fromEntries(METHODS.map((m) => [m, tally()]));
  const levels = { l1: [], l2: [], dropped: [] };
  for (let i = 0; i < reps; i++) {
    const sample = sampleStats(c.stats, sampleIndices(k, M, SEED, i));
    const a = analyzeIntervals(sample, {
      level: LEVEL,
      population: fpc ? M : null,
      replicates: 0,
      resamplingSkipped: "B = 0: not scored here",
    });
    const m = a.micro.intervals;
    const cr2 = m.cr2;
    for (const name of ["cr2", "logit", "logit-cv3"]) score(tallies[name], m[name], truth, cr2);
    if (!m["logit-cv3"].available) continue;
    const { l1, l1miss, l2, dropped } = calibratedLevels(sample, a.micro.estimate, i, double);
    const at = (level) =>
      Number.isNaN(level)
        ? null
        : level >= 1
          ? { available: true, lower: 0, upper: 1 }
          : logitCv3Interval(sample, level, true, fpc ? M : null);
    score(tallies["calibrated-1"], at(l1), truth, cr2);
    score(tallies["calibrated-1-miss"], at(l1miss), truth, cr2);
    if (double) score(tallies["calibrated-2"], at(l2), truth, cr2);
    levels.l1.push(l1);
    if (double) levels.l2.push(l2);
    levels.dropped.push(dropped);
  }
  const cpu = process.cpuUsage(started);
  const seconds = (cpu.user + cpu.system) / 1e6;
  const methods = Object.fromEntries(
    METHODS.filter((m) => double || m !== "calibrated-2").map((m) => [m, summary(tallies[m])]),
  );
  const med = (x) => (x.length ? quantile(x, 0.5) : null);
  const mean = (x) => (x.length ? x.reduce((a, b) => a + b, 0) / x.length : null);
  console.error(
    `${c.name} K = ${k}${fpc ? " fpc" : ""}${double ? " (two levels)" : ""}: ${seconds.toFixed(1)} s CPU; ` +
      METHODS.filter((m) => methods[m])
        .map(
          (m) =>
            `${m} ${(100 * methods[m].coverage).toFixed(1)} (${methods[m].widthOverCr2?.toFixed(2)})`,
        )
        .join(", "),
  );
  return {
    census: c.name,
    k,
    fpc,
    reps,
    b1: B1,
    b2: double ? B2 : null,
    inner: double ? BIN : null,
    truth,
    cpuSeconds: seconds,
    medianLevel1: med(levels.l1),
    medianLevel2: double ? med(levels.l2) : null,
    meanDropped: mean(levels.dropped),
    methods,
  };
}

// The grid: K = 10, 20, 50 without and with the fpc (K = 20 first), both calibrations everywhere
// unless DOUBLE_KS limits the two-level one (it costs B₂·B_in resamples per sample).
const doubleKs = (process.env.DOUBLE_KS ?? "10,20,50").split(",").map(Number);
const grid = process.env.CELLS
  ? process.env.CELLS.split(",").map((x) => {
      const [name, k, fpc] = x.split(":");
      return { name, k: Number(k), fpc: fpc === "fpc" };
    })
  : CENSUSES.flatMap((c) =>
      [
        [20, false],
        [20, true],
        [10, false],
        [50, false],
        [10, true],
        [50, true],
      ].map(([k, fpc], order) => ({ name: c.name, k, fpc, order })),
    ).sort((a, b) => a.order - b.order);
const out = join(here, "calibrated.json");
const labels = Object.fromEntries(CENSUSES.map((c) => [c.name, c.label]));

// RENDER_ONLY re-renders calibrated.json; TIMING adds the per-analysis cost; CELLS runs a subset
// and prints it, or with APPEND=1 adds it to calibrated.json (a grid run in more than one go).
if (process.env.RENDER_ONLY) render(JSON.parse(readFileSync(out, "utf8")));
else if (process.env.TIMING) timing();
else {
  const append = Boolean(process.env.APPEND);
  const cells = append ? JSON.parse(readFileSync(out, "utf8")).cells : [];
  for (const g of grid) {
    const c = CENSUSES.find((x) => x.name === g.name);
    const scored = cell(c, g.k, g.fpc, doubleKs.includes(g.k));
    if (process.env.CELLS && !append) continue;
    const same = cells.findIndex((x) => x.census === g.name && x.k === g.k && x.fpc === g.fpc);
    if (same >= 0) cells[same] = scored;
    else cells.push(scored);
    const census = CENSUSES.map((x) => ({
      name: x.name,
      label: x.label,
      documents: x.stats.n.length,
    }));
    writeFileSync(
      out,
      `${JSON.stringify({ level: LEVEL, seed: SEED, censuses: census, cells }, null, 1)}\n`,
    );
  }
  if (!process.env.CELLS || append) render(JSON.parse(readFileSync(out, "utf8")));
}

/**
 * What a calibration adds to one analysis at K = 20 (synthetic census, the first TIMING_REPS
 * samples): CPU ms per sample of logit-cv3 alone, of the one-level and of the two-level
 * calibration, and of analyze's own intervals with B = 9999 (its default). Adds them to
 * calibrated.json.
 */
function timing() {
  const c = CENSUSES[0];
  const M = c.stats.n.length;
  const count = Number(process.env.TIMING_REPS ?? 40);
  const samples = Array.from({ length: count }, (_, i) =>
    sampleStats(c.stats, sampleIndices(20, M, SEED, i)),
  );
  const cpuMs = (f) => {
    const t0 = process.cpuUsage();
    samples.forEach(f);
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / 1000 / count;
  };
  const estimate = (x) => x.s.reduce((a, b) => a + b, 0) / x.n.reduce((a, b) => a + b, 0);
  const result = {
    census: c.name,
    k: 20,
    samples: count,
    b1: B1,
    b2: B2,
    inner: BIN,
    logitCv3Ms: cpuMs((x) => logitCv3Interval(x, LEVEL, true, null)),
    oneLevelMs: cpuMs((x, i) => calibratedLevels(x, estimate(x), i, false)),
    twoLevelMs: cpuMs((x, i) => calibratedLevels(x, estimate(x), i, true)),
    analyzeB9999Ms: cpuMs((x) => analyzeIntervals(x, { level: LEVEL, replicates: 9999 })),
  };
  console.error(result);
  const json = JSON.parse(readFileSync(out, "utf8"));
  json.timing = result;
  writeFileSync(out, `${JSON.stringify(json, null, 1)}\n`);
  render(json);
}

function render(json) {
  const pct = (x) => (100 * x).toFixed(1);
  const at = (census, k, fpc) =>
    json.cells.find((x) => x.census === census && x.k === k && x.fpc === fpc);
  const show = (m) =>
    m
      ? `${pct(m.coverage)} ± ${pct(m.mcse)} (${m.widthOverCr2 === null ? "—" : m.widthOverCr2.toFixed(2)})`
      : "";
  const names = json.censuses.map((c) => c.name);
  const NAMES = {
    cr2: "`cr2`",
    logit: "`logit`",
    "logit-cv3": "`logit-cv3`",
    "calibrated-1": "`logit-cv3`, level calibrated (one level, B = 999)",
    "calibrated-1-miss": "the same, a resample without logit-cv3 counted as a miss",
    "calibrated-2": "`logit-cv3`, level calibrated (two levels, 199 × 99)",
  };
  const byCensus = (k, fpc) => [
    `| micro at K = ${k}${fpc ? ", fpc" : ""} | ${names.map((n) => labels[n]).join(" | ")} |`,
    `|---|${names.map(() => "---:").join("|")}|`,
    ...Object.keys(NAMES).map(
      (m) => `| ${NAMES[m]} | ${names.map((n) => show(at(n, k, fpc)?.methods[m])).join(" | ")} |`,
    ),
    `| median calibrated level, one level; two levels | ${names
      .map((n) => at(n, k, fpc))
      .map((x) =>
        x ? `${pct(x.medianLevel1)}; ${x.medianLevel2 === null ? "—" : pct(x.medianLevel2)}` : "",
      )
      .join(" | ")} |`,
  ];
  const CELLS = [
    [10, false],
    [20, false],
    [50, false],
    [10, true],
    [20, true],
    [50, true],
  ].filter(([k, fpc]) => json.cells.some((x) => x.k === k && x.fpc === fpc));
  const byK = (m) => [
    `| ${NAMES[m]} | ${CELLS.map(([k, fpc]) => `K = ${k}${fpc ? ", fpc" : ""}`).join(" | ")} |`,
    `|---|${CELLS.map(() => "---:").join("|")}|`,
    ...names.map(
      (n) =>
        `| ${labels[n]} | ${CELLS.map(([k, fpc]) => show(at(n, k, fpc)?.methods[m])).join(" | ")} |`,
    ),
  ];
  const s = summaries(json);
  const line = (m, x) =>
    `| ${NAMES[m]} | ${pct(x.lowest)} (${labels[x.lowestAt.census]}, K = ${x.lowestAt.k}${x.lowestAt.fpc ? ", fpc" : ""}) | ${pct(x.highest)} | ${(100 * x.meanGap).toFixed(2)} | ${x.below92} of ${x.cells} | ${x.widthOverLogitCv3.toFixed(2)} | ${x.medianWidthOverLogitCv3.toFixed(2)} |`;
  const summaryTable = (title, set) => [
    `| ${title} | lowest coverage | highest | mean \\|coverage − 95\\| (points) | cells below 92% | mean width / logit-cv3's | median width / logit-cv3's |`,
    "|---|---:|---:|---:|---:|---:|---:|",
    ...Object.keys(NAMES)
      .filter((m) => set[m])
      .map((m) => line(m, set[m])),
  ];
  const first = json.cells[0];
  const timingLine = json.timing
    ? `CPU per analysis at K = 20 (synthetic census, ${json.timing.samples} samples): calibrated, one level (B = ${json.timing.b1}) ${json.timing.oneLevelMs.toFixed(1)} ms; two levels (${json.timing.b2} × ${json.timing.inner}) ${json.timing.twoLevelMs.toFixed(0)} ms; for scale, analyze's intervals with its default B = 9999 bootstraps ${json.timing.analyzeB9999Ms.toFixed(0)} ms.`
    : "";
  const cpu = json.cells.reduce((a, x) => a + x.cpuSeconds, 0);
  const guide = [
    `Coverage in % ± Monte Carlo se of nominal 95% micro intervals, and in parentheses their mean width over cr2's mean width on the same samples; ${first.reps} repetitions per cell (the first ${first.reps} samples of \`simulate --seed 1\`), SRS of K documents; a missing interval counts as a miss. The calibrated level is the sample's; the tables show its median over the samples. The study took ${(cpu / 60).toFixed(0)} min of CPU (${json.cells.length} cells).`,
    "",
    ...byCensus(20, false),
    "",
    ...byCensus(20, true),
    "",
    "Every K, without and with the fpc:",
    "",
    ...byK("logit-cv3"),
    "",
    ...byK("calibrated-1"),
    "",
    ...byK("calibrated-2"),
    "",
    "Over every cell at K ≥ 10 (with and without the fpc), the power-law census left out (no micro interval holds there; it is in the second table):",
    "",
    ...summaryTable("micro, 6 censuses", s.withoutPareto),
    "",
    ...summaryTable("micro, all 7 censuses", s.all),
    "",
    timingLine,
  ].join("\n");
  const md = join(here, "CALIBRATED.md");
  writeFileSync(
    md,
    alignTables(
      `# A calibrated logit-cv3\n\nGenerated by \`node bench/method-guide/calibrated.mjs\`; do not edit.\n\n${guide}\n`,
    ),
  );
  writeGuideSection("calibrated-guide", guide);
}

/** Lowest and highest coverage, mean |coverage − 95%| and mean width over logit-cv3's, per method. */
export function summaries(json) {
  const over = (cells) => {
    const result = {};
    for (const m of [
      "cr2",
      "logit",
      "logit-cv3",
      "calibrated-1",
      "calibrated-1-miss",
      "calibrated-2",
    ]) {
      const scored = cells.filter((x) => x.methods[m]);
      if (scored.length === 0) continue;
      const cov = scored.map((x) => x.methods[m].coverage);
      const lowest = Math.min(...cov);
      const lowestAt = scored[cov.indexOf(lowest)];
      result[m] = {
        cells: scored.length,
        lowest,
        lowestAt: { census: lowestAt.census, k: lowestAt.k, fpc: lowestAt.fpc },
        highest: Math.max(...cov),
        below92: cov.filter((c) => c < 0.92).length,
        meanGap: cov.reduce((a, c) => a + Math.abs(c - 0.95), 0) / cov.length,
        // The per-sample median width (over cr2's), as a ratio to logit-cv3's, averaged over cells.
        medianWidthOverLogitCv3:
          scored.reduce(
            (a, x) =>
              a + x.methods[m].medianWidthOverCr2 / x.methods["logit-cv3"].medianWidthOverCr2,
            0,
          ) / scored.length,
        widthOverLogitCv3:
          scored.reduce(
            (a, x) => a + x.methods[m].meanWidth / x.methods["logit-cv3"].meanWidth,
            0,
          ) / scored.length,
      };
    }
    return result;
  };
  const cells = json.cells.filter((x) => x.k >= 10);
  return { all: over(cells), withoutPareto: over(cells.filter((x) => x.census !== "pareto")) };
}
