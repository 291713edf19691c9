import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  analyze,
  cr1,
  cr2,
  type DocumentStats,
  documentStats,
  finitePopulationCorrection,
  type Interval,
  macroEstimate,
  macroT,
  microEstimate,
} from "../../src/core/index.js";
import { compensatedSum } from "../../src/core/numeric/compensatedSum.js";
import { mulberry32 } from "../support/mulberry32.js";
import { rscriptOnce } from "./runRscript.js";

const R_SCRIPT_PATH = fileURLToPath(new URL("./srs.R", import.meta.url));
const REL = 1e-8;
const ABS_AT_ZERO = 1e-12;
const SEED = 20240611;
const DATA_SETS = 60;

// ---------------------------------------------------------------------------------------------
// Deterministic data generation.

type Sizes = "small" | "heavy" | "dominant" | "mixed";
type Metric = "binary" | "reciprocal-rank" | "continuous";
type EqualRates = "all-ones" | "all-zeros" | "binary-half" | "constant-score" | "score-pairs";

interface DataSet {
  readonly index: number;
  readonly k: number;
  readonly sizes: Sizes;
  readonly metric: Metric;
  readonly equalRates: EqualRates | null;
  readonly population: number;
  readonly levels: readonly number[];
  /** Per document: its results. */
  readonly results: readonly (readonly number[])[];
}

const K2 = new Set([0, 7, 14, 21, 28, 35, 42, 53]);
const EQUAL_VARIANTS: readonly EqualRates[] = [
  "all-ones",
  "score-pairs",
  "binary-half",
  "constant-score",
  "all-zeros",
];

/** The results of one document with nd results. */
function documentResults(
  nd: number,
  metric: Metric,
  equalRates: EqualRates | null,
  rand: () => number,
): number[] {
  const each = (value: (j: number) => number) => Array.from({ length: nd }, (_, j) => value(j));
  switch (equalRates) {
    case "all-ones":
      return each(() => 1);
    case "all-zeros":
      return each(() => 0);
    case "binary-half":
      return each((j) => (j % 2 === 0 ? 1 : 0));
    case "constant-score":
      return each(() => 0.37);
    case "score-pairs":
      // rate 0.4 in every document, with within-document spread.
      return each((j) => (j % 2 === 0 ? 0.2 : 0.6));
    case null:
      break;
  }
  switch (metric) {
    case "binary": {
      const p = rand() ** (rand() < 0.5 ? 0.5 : 2);
      return each(() => (rand() < p ? 1 : 0));
    }
    case "reciprocal-rank": {
      // 0 (no relevant result in the top 10) or 1/rank.
      const miss = rand() * 0.8;
      const spread = 0.2 + rand() * 2;
      return each(() => {
        if (rand() < miss) return 0;
        return 1 / Math.min(10, 1 + Math.floor(-Math.log(1 - rand()) * spread));
      });
    }
    case "continuous": {
      const shape = 0.2 + rand() * 4.8;
      return each(() => rand() ** shape);
    }
  }
}

function generate(index: number, rand: () => number): DataSet {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const logUniformInt = (lo: number, hi: number) =>
    Math.min(hi, Math.max(lo, Math.round(Math.exp(Math.log(lo) + rand() * Math.log(hi / lo)))));

  const sizes = (["small", "heavy", "dominant", "mixed"] as const)[index % 4] as Sizes;
  const metric = (["binary", "reciprocal-rank", "continuous"] as const)[
    Math.floor(index / 4) % 3
  ] as Metric;
  const equalRates =
    index % 12 === 11 || index === 53
      ? (EQUAL_VARIANTS[Math.floor(index / 12) % EQUAL_VARIANTS.length] as EqualRates)
      : null;

  // K; heavy (up to 500 per document) and dominant data sets stay small: clubSandwich's CR2
  // costs O(Σ n_d³).
  let k = K2.has(index) ? 2 : int(3, 60);
  if (sizes === "heavy") k = Math.min(k, int(3, 15));
  if (sizes === "dominant") k = Math.min(k, int(3, 30));
  if (K2.has(index)) k = 2;

  let n: number[];
  switch (sizes) {
    case "small":
      n = Array.from({ length: k }, () => int(1, 30));
      break;
    case "heavy":
      n = Array.from({ length: k }, () => logUniformInt(1, 500));
      break;
    case "dominant": {
      // One document holds > 90% of the results.
      const big = int(300, 500);
      const cap = Math.max(1, Math.floor((big - 1) / (9 * (k - 1))));
      n = Array.from({ length: k }, () => int(1, cap));
      n[int(0, k - 1)] = big;
      break;
    }
    case "mixed":
      n = Array.from({ length: k }, () => (rand() < 0.1 ? int(50, 200) : int(1, 10)));
      break;
  }
  if (equalRates === "binary-half" || equalRates === "score-pairs") n = n.map((x) => 2 * x);

  const results = n.map((nd) => documentResults(nd, metric, equalRates, rand));

  // M: K + 1 often, M = K (a census) a few times, otherwise K + 1 .. 4K.
  const population =
    index % 6 === 0 ? k + 1 : index % 13 === 5 ? k : k + 1 + Math.floor(rand() * 3 * k);
  const levels = index % 5 === 3 ? [0.95, 0.9] : [0.95];
  return { index, k, sizes, metric, equalRates, population, levels, results };
}

const rand = mulberry32(SEED);
const dataSets: DataSet[] = Array.from({ length: DATA_SETS }, (_, i) => generate(i, rand));

function statsOf(ds: DataSet): DocumentStats {
  const binary = ds.equalRates
    ? ["all-ones", "all-zeros", "binary-half"].includes(ds.equalRates)
    : ds.metric === "binary";
  const ids = ds.results.map((_, d) => `doc-${d}`);
  const n = ds.results.map((r) => r.length);
  const s = ds.results.map((r) => compensatedSum(r));
  if (binary) return documentStats({ ids, n, s });
  const all = ds.results.flat();
  return documentStats({
    ids,
    n,
    s,
    ss: ds.results.map((r) => compensatedSum(r.map((x) => x * x))),
    binary: false,
    min: Math.min(...all),
    max: Math.max(...all),
  });
}

// ---------------------------------------------------------------------------------------------
// One Rscript run for every data set.

const rscript = rscriptOnce(
  {
    script: R_SCRIPT_PATH,
    packages: "clubSandwich, survey and jsonlite",
    name: "ragci-r-crosscheck",
    timeoutMs: 110_000,
  },
  () => ({
    datasets: dataSets.map((ds) => ({
      index: ds.index,
      k: ds.k,
      population: ds.population,
      levels: ds.levels,
      doc: ds.results.flatMap((r, d) => r.map(() => d)),
      y: ds.results.flat(),
    })),
  }),
);
const runR = rscript.run;

// ---------------------------------------------------------------------------------------------
// Comparison with a record of the worst difference per quantity.

const worst = new Map<string, { value: number; at: number }>();

function check(
  index: number,
  quantity: string,
  actual: number | null | undefined,
  expected: number | undefined,
  zero = false,
): void {
  const where = `data set ${index}, ${quantity}`;
  if (expected === undefined || Number.isNaN(expected)) {
    expect.soft(false, `${where}: R gave no value`).toBe(true);
    return;
  }
  if (typeof actual !== "number" || !Number.isFinite(actual)) {
    expect.soft(false, `${where}: ragci gave ${actual} (R ${expected})`).toBe(true);
    return;
  }
  const abs = Math.abs(actual - expected);
  const rel =
    expected === 0 ? (actual === 0 ? 0 : Number.POSITIVE_INFINITY) : abs / Math.abs(expected);
  const tolerance = zero ? ABS_AT_ZERO + REL * Math.abs(expected) : REL * Math.abs(expected);
  const key = `${quantity.replace(/@[\d.]+$/, "")}${zero ? " [se 0 in exact arithmetic: absolute]" : ""}`;
  const measure = zero ? abs : rel;
  const w = worst.get(key);
  if (!w || measure > w.value) worst.set(key, { value: measure, at: index });
  expect
    .soft(
      abs <= tolerance,
      `${where}: ragci ${actual.toPrecision(17)} vs R ${expected.toPrecision(17)} (abs diff ${abs.toExponential(3)}, rel diff ${rel.toExponential(3)}, tolerance ${tolerance.toExponential(3)})`,
    )
    .toBe(true);
}

interface IntervalSpec {
  readonly label: string;
  readonly estimand: "micro" | "macro";
  readonly method: "cr2" | "cr1" | "t";
  /** From analyze(stats, { level, population: M }) rather than analyze(stats, { level }). */
  readonly fpc: boolean;
  readonly r: RNames;
}

interface RNames {
  readonly se: string;
  readonly df: string;
  readonly lower: string;
  readonly upper: string;
  readonly q?: string;
}

/** An analyze() interval compared with R's `${prefix}.se`, `.lower`, `.upper`, and df (and q). */
function spec(
  label: string,
  [estimand, method]: [IntervalSpec["estimand"], IntervalSpec["method"]],
  fpc: boolean,
  prefix: string,
  df: string,
  q?: string,
): IntervalSpec {
  const names = { se: `${prefix}.se`, df, lower: `${prefix}.lower`, upper: `${prefix}.upper` };
  return { label, estimand, method, fpc, r: q ? { ...names, q } : names };
}

const INTERVALS: readonly IntervalSpec[] = [
  spec(
    "analyze cr2 vs clubSandwich",
    ["micro", "cr2"],
    false,
    "club.cr2",
    "club.cr2.df",
    "club.cr2.q",
  ),
  spec(
    "analyze cr1 vs clubSandwich",
    ["micro", "cr1"],
    false,
    "club.cr1",
    "club.cr1.df",
    "club.cr1.q",
  ),
  spec("analyze cr1 vs svyratio", ["micro", "cr1"], false, "svy.ratio", "svy.degf"),
  spec("analyze macro t vs svymean", ["macro", "t"], false, "svy.mean", "svy.degf"),
  spec("analyze(M) cr1 vs svyratio fpc", ["micro", "cr1"], true, "svyfpc.ratio", "svyfpc.degf"),
  spec("analyze(M) macro t vs svymean fpc", ["macro", "t"], true, "svyfpc.mean", "svyfpc.degf"),
  // clubSandwich has no fpc: its CR2 se × √(1 − K/M), bounds with the same q.
  spec(
    "analyze(M) cr2 vs clubSandwich x sqrt(1-K/M)",
    ["micro", "cr2"],
    true,
    "club.cr2.fpc",
    "club.cr2.df",
    "club.cr2.q",
  ),
];

function checkInterval(
  index: number,
  label: string,
  interval: Interval | undefined,
  r: Map<string, number>,
  level: number,
  names: RNames,
  zero: boolean,
): void {
  if (!interval?.available) {
    expect.soft(false, `data set ${index}, ${label}: ragci interval unavailable`).toBe(true);
    return;
  }
  const value = (name: string) => r.get(name) ?? r.get(`${name}@${level}`);
  check(index, `${label} se`, interval.se, value(names.se), zero);
  check(index, `${label} df`, interval.df, value(names.df));
  if (names.q) check(index, `${label} q@${level}`, interval.q, value(names.q));
  check(index, `${label} lower@${level}`, interval.lower, value(names.lower), zero);
  check(index, `${label} upper@${level}`, interval.upper, value(names.upper), zero);
}

// ---------------------------------------------------------------------------------------------

describe("ragci SRS estimators agree with R clubSandwich and survey", () => {
  it("runs Rscript once with clubSandwich, survey and jsonlite for every data set", () => {
    const { values, versions } = runR();
    expect(versions.get("clubSandwich"), "clubSandwich version").toBeDefined();
    expect(versions.get("survey"), "survey version").toBeDefined();
    expect([...values.keys()].map(Number).sort((a, b) => a - b)).toEqual(
      dataSets.map((d) => d.index),
    );
  }, 120_000);

  it("covers the intended cases", () => {
    expect(dataSets.filter((d) => d.k === 2).length).toBeGreaterThanOrEqual(5);
    expect(dataSets.filter((d) => d.equalRates !== null).length).toBeGreaterThanOrEqual(5);
    expect(dataSets.filter((d) => d.population === d.k + 1).length).toBeGreaterThanOrEqual(5);
    expect(dataSets.filter((d) => d.levels.includes(0.9)).length).toBeGreaterThanOrEqual(5);
    const dominant = dataSets.filter((d) => {
      const n = d.results.map((r) => r.length);
      return Math.max(...n) > 0.9 * n.reduce((a, b) => a + b, 0);
    });
    expect(dominant.length).toBeGreaterThanOrEqual(10);
    const sizes = dataSets.flatMap((d) => d.results.map((r) => r.length));
    expect(Math.min(...sizes)).toBe(1);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(490);
  });

  it.each(
    dataSets.map((ds) => ({
      ds,
      name: `${ds.index}: K = ${ds.k}, N = ${ds.results.flat().length}, ${ds.sizes} sizes, ${ds.equalRates ?? ds.metric}, M = ${ds.population}`,
    })),
  )("data set $name", ({ ds }) => {
    const r = runR().values.get(String(ds.index));
    if (!r) throw new Error(`data set ${ds.index}: no R output`);
    const i = ds.index;
    const stats = statsOf(ds);
    const k = ds.k;
    const m = ds.population;
    const seZero = ds.equalRates !== null;
    const census = m === k;

    // Data round trip.
    check(i, "N", ds.results.flat().length, r.get("data.N"));
    check(i, "sum of results", compensatedSum(stats.s), r.get("data.sum_y"));

    // Estimates.
    check(i, "micro estimate (lm coef)", microEstimate(stats), r.get("lm.coef"));
    check(i, "micro estimate (svyratio)", microEstimate(stats), r.get("svy.ratio"));
    check(i, "macro estimate (svymean)", macroEstimate(stats), r.get("svy.mean"));

    // Standard errors and df.
    const c2 = cr2(stats);
    const c1 = cr1(stats);
    const mt = macroT(stats);
    check(i, "cr2 se (coef_test CR2)", c2.se, r.get("club.cr2.se"), seZero);
    check(
      i,
      "cr2 se (sqrt vcovCR CR2)",
      c2.se,
      Math.sqrt(r.get("club.cr2.vcov") ?? Number.NaN),
      seZero,
    );
    check(i, "cr2 df (coef_test df_Satt)", c2.df, r.get("club.cr2.df"));
    check(i, "cr1 se (coef_test CR1)", c1.se, r.get("club.cr1.se"), seZero);
    check(
      i,
      "cr1 se (sqrt vcovCR CR1)",
      c1.se,
      Math.sqrt(r.get("club.cr1.vcov") ?? Number.NaN),
      seZero,
    );
    check(
      i,
      "cr1 se (sqrt(K/(K-1)) x clubSandwich CR0)",
      c1.se,
      Math.sqrt(((r.get("club.cr0.vcov") ?? Number.NaN) * k) / (k - 1)),
      seZero,
    );
    check(i, "cr1 df (coef_test naive-t df)", c1.df, r.get("club.cr1.df"));
    check(i, "cr1 se (svyratio SE)", c1.se, r.get("svy.ratio.se"), seZero);
    check(i, "macroT se (svymean SE)", mt.se, r.get("svy.mean.se"), seZero);
    check(i, "macroT df (degf)", mt.df, r.get("svy.degf"));
    const f = finitePopulationCorrection(k, m);
    check(
      i,
      "cr1 se x sqrt(fpc) (svyratio fpc SE)",
      c1.se * Math.sqrt(f),
      r.get("svyfpc.ratio.se"),
      seZero || census,
    );
    check(
      i,
      "macroT se x sqrt(fpc) (svymean fpc SE)",
      mt.se * Math.sqrt(f),
      r.get("svyfpc.mean.se"),
      seZero || census,
    );

    // Intervals from analyze, without and with M.
    for (const level of ds.levels) {
      const a = analyze(stats, { level });
      check(i, `analyze micro estimate@${level}`, a.micro?.estimate, r.get("lm.coef"));
      check(i, `analyze macro estimate@${level}`, a.macro?.estimate, r.get("svy.mean"));
      const p = analyze(stats, { level, population: m });
      for (const spec of INTERVALS) {
        const analysis = spec.fpc ? p : a;
        const interval = analysis[spec.estimand]?.intervals[spec.method];
        checkInterval(
          i,
          spec.label,
          interval,
          r,
          level,
          spec.r,
          spec.fpc ? seZero || census : seZero,
        );
      }
    }
  });

  afterAll(() => {
    const rRun = rscript.completed();
    if (!rRun) return;
    const rows = [...worst.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([q, w]) => {
        const kind = q.endsWith("absolute]") ? "abs" : "rel";
        return `  ${q}: worst ${kind} diff ${w.value.toExponential(2)} (data set ${w.at})`;
      });
    const versions = [...rRun.versions.entries()].map(([p, v]) => `${p} ${v}`).join(", ");
    console.log(
      `R cross-check: ${dataSets.length} data sets, Rscript ${rRun.seconds.toFixed(1)} s (${versions})\n${rows.join("\n")}`,
    );
  });
});
