/**
 * Cross-check of ragci's stratified and two-stage design estimators against R's survey
 * package, on seeded random designs (among them stratified designs with one-document strata
 * under each lonely-PSU rule) and on the reference case two_stage_types.
 *
 * Provenance: written and checked against R 4.2.2 Patched (2022-11-10 r83330), survey 4.1.1 and
 * jsonlite 1.8.4 (the versions R reports are printed after the run). Rscript runs once
 * (test/r-crosscheck/designs.R) on every data set, written as per-document rows to one JSON
 * file in a temp dir (the reference case: the paths of its CSV and design, which R reads and
 * aggregates itself); R prints each value with sprintf("%.17g"). Per data set, R does:
 *
 *   pd  <- data.frame(doc, stratum, Mh, n, s, r = s / n)      # or doc, psu, T, Mi, n, s, r
 *   des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~Mh, data = pd)   # stratified
 *   des <- svydesign(ids = ~psu + doc, fpc = ~T + Mi, data = pd)          # two-stage
 *   svyratio(~s, ~n, des)  (micro);  svymean(~r, des)  (macro)            # coef, SE
 *   degf(des);  confint(<each>, level = level, df = degf(des))
 *
 * with survey's defaults (survey.lonely.psu = "fail", multistage variance, no certainty units),
 * and compares with ragci's stratifiedEstimates and twoStageEstimates: estimate, se, df, lower,
 * upper of micro and macro. The lonely-PSU data sets (lonelyN) have strata with one sampled
 * document of M_h > 1 and/or certainty strata (one document, M_h = 1) and set
 * options(survey.lonely.psu = RULE) to the rule ragci is given (lonelyPsu); under "fail" R stops
 * with "Stratum (x) has only one PSU at stage 1" and ragci must throw naming a one-document
 * stratum. Agreement: 1e-9 relative; where the se is 0 in exact arithmetic
 * (every stratum a census or its rates all equal, a census at both stages, all rates equal) R
 * returns rounding noise (~1e-17), so se and bounds are compared to 1e-12 absolute there. The
 * reference case two_stage_types is also compared with its expected.json (two_stage.micro and
 * two_stage.macro_hajek: se, df, lower, upper; estimates from oracles.numpy.two_stage) to 1e-12.
 *
 * Rscript or an R package missing makes every test here FAIL (never skip). RSCRIPT=/path/to/Rscript
 * picks another R; RAGCI_R_CROSSCHECK_KEEP=DIR keeps R's input JSON and output CSV in DIR.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LONELY_PSU_RULES, type LonelyPsu } from "../../src/core/designs/lonelyPsu.js";
import {
  type DocumentStats,
  documentStats,
  RagciError,
  stratifiedEstimates,
  twoStageEstimates,
} from "../../src/core/index.js";
import { mulberry32 } from "../support/mulberry32.js";
import { rscriptOnce } from "./runRscript.js";

const R_SCRIPT_PATH = fileURLToPath(new URL("./designs.R", import.meta.url));
const REFERENCE_DIR = new URL("../fixtures/reference/", import.meta.url);
const REL = 1e-9;
const ABS_AT_ZERO = 1e-12;
const REFERENCE_REL = 1e-12;
const SEED = 20240612;
const STRATIFIED_SETS = 36;
const TWO_STAGE_SETS = 36;
const LONELY_SEED = 20250105;
/** Per lonely-PSU rule. */
const LONELY_SETS_PER_RULE = 9;

// ---------------------------------------------------------------------------------------------
// Deterministic data generation.

/** Per-document frame of one design: the group is the stratum or the first-stage unit. */
interface Documents {
  readonly ids: string[];
  readonly group: string[];
  readonly n: number[];
  readonly s: number[];
}

interface StratifiedSet extends Documents {
  readonly kind: "stratified";
  readonly id: string;
  readonly levels: readonly number[];
  /** M_h by stratum name. */
  readonly populationSizes: Record<string, number>;
  /** The rule given to ragci and, as options(survey.lonely.psu =), to R. */
  readonly lonelyPsu: LonelyPsu;
  readonly note: string;
}

interface TwoStageSet extends Documents {
  readonly kind: "two-stage";
  readonly id: string;
  readonly levels: readonly number[];
  /** T. */
  readonly firstStagePopulation: number;
  /** M_i by unit name (sampled units only). */
  readonly secondStagePopulation: Record<string, number>;
  readonly note: string;
}

type DesignSet = StratifiedSet | TwoStageSet;

/** Names whose code-point order, R's sort order and order of appearance all differ. */
const STRATUM_NAMES = ["b", "a", "B", "10", "9", "a b", "z-1", "Z_2"] as const;
/** Rates forced equal in every document (the se is then 0 in exact arithmetic). */
type EqualRate = "half" | "third" | null;

function tools(rand: () => number) {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const shuffle = <T>(xs: T[]): T[] => {
    for (let j = xs.length - 1; j > 0; j--) {
      const i = int(0, j);
      [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
    }
    return xs;
  };
  /** Very unequal sizes, 1..80: many tiny documents, some large ones. */
  const size = () => {
    const u = rand();
    return u < 0.12 ? int(40, 80) : u < 0.55 ? int(1, 4) : int(5, 39);
  };
  /** s_d: a 0/1 result per query, with a group-level hit rate and document-level spread. */
  const hits = (nd: number, groupRate: number) => {
    const p = Math.min(1, Math.max(0, groupRate + (rand() - 0.5) * 0.5));
    let sd = 0;
    for (let j = 0; j < nd; j++) if (rand() < p) sd += 1;
    return sd;
  };
  return { int, shuffle, size, hits };
}

/** Documents of the groups, shuffled so that groups interleave; rates forced equal on request. */
function documentsOf(
  groups: readonly { name: string; k: number }[],
  equalRate: EqualRate,
  rand: () => number,
): Documents {
  const { shuffle, size, hits } = tools(rand);
  const rows: { id: string; group: string; n: number; s: number }[] = [];
  for (const g of groups) {
    const rate = rand() ** (rand() < 0.5 ? 0.5 : 2);
    for (let j = 0; j < g.k; j++) {
      let n = size();
      let s: number;
      if (equalRate === "half") {
        n = 2 * Math.max(1, Math.round(n / 2));
        s = n / 2;
      } else if (equalRate === "third") {
        n = 3 * Math.max(1, Math.round(n / 3));
        s = n / 3;
      } else s = hits(n, rate);
      rows.push({ id: `${g.name}/d${String(j).padStart(2, "0")}`, group: g.name, n, s });
    }
  }
  shuffle(rows);
  return {
    ids: rows.map((r) => r.id),
    group: rows.map((r) => r.group),
    n: rows.map((r) => r.n),
    s: rows.map((r) => r.s),
  };
}

function levelsOf(index: number): number[] {
  return index % 5 === 3 ? [0.95, 0.9] : [0.95];
}

function generateStratified(index: number, rand: () => number): StratifiedSet {
  const { int, shuffle } = tools(rand);
  const h = index % 9 === 4 ? 5 : index % 9 === 5 ? 2 : int(2, 5);
  const names = shuffle([...STRATUM_NAMES]).slice(0, h);
  const allTwo = index % 7 === 1;
  const groups = names.map((name) => ({ name, k: allTwo ? 2 : rand() < 0.2 ? 2 : int(2, 12) }));
  // M_h: K_h..10·K_h; one stratum a census (M_h = K_h) in every third data set; every stratum
  // a census in data set 7 (se 0); M_h = K_h + 1 in places.
  const census = index === 7 ? "all" : index % 3 === 0 ? "one" : "none";
  const populationSizes: Record<string, number> = {};
  groups.forEach((g, j) => {
    populationSizes[g.name] =
      census === "all" || (census === "one" && j === 0)
        ? g.k
        : rand() < 0.15
          ? g.k + 1
          : int(g.k, 10 * g.k);
  });
  const equalRate: EqualRate = index === 19 ? "half" : index === 23 ? "third" : null;
  const docs = documentsOf(groups, equalRate, rand);
  const note = [
    `H = ${h}`,
    `K = ${docs.ids.length}`,
    `N = ${docs.n.reduce((a, b) => a + b, 0)}`,
    census === "all" ? "every stratum a census" : census === "one" ? "one census stratum" : "",
    allTwo ? "K_h = 2" : "",
    equalRate ? `all rates 1/${equalRate === "half" ? 2 : 3}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return {
    kind: "stratified",
    id: `st${index}`,
    levels: levelsOf(index),
    populationSizes,
    lonelyPsu: "fail",
    note,
    ...docs,
  };
}

/**
 * A stratified design with one-document strata, under rule LONELY_PSU_RULES[index % 5]: 1–3
 * lonely strata (K_h = 1, M_h = 2..20) beside 1–4 strata of K_h = 2..8 (so ν = K − H ≥ 1), a
 * certainty stratum (K_h = M_h = 1) in every third set. Under "fail" every other set has only
 * certainty strata as its one-document strata (R and ragci give numbers), the rest a lonely
 * stratum (both must stop). Per rule, one set has every multi-document stratum a census (the
 * lonely strata then carry all the variance, or none), one has every rate equal (se 0), one
 * has a single stratum of K_h = 2 beside the lonely ones (ν = 1).
 */
function generateLonely(index: number, rand: () => number): StratifiedSet {
  const { int, shuffle } = tools(rand);
  const rule = LONELY_PSU_RULES[index % LONELY_PSU_RULES.length] as LonelyPsu;
  const round = Math.floor(index / LONELY_PSU_RULES.length);
  const onlyCertainty = rule === "fail" && round % 2 === 1;
  const certainty = onlyCertainty || index % 3 === 0;
  const minimal = round === 2;
  const lonely = onlyCertainty ? 0 : int(1, 3);
  const others = minimal ? 1 : int(1, 4);
  const names = shuffle([...STRATUM_NAMES]).slice(0, lonely + others + (certainty ? 1 : 0));
  const groups = names.map((name, j) => ({
    name,
    k: j < lonely || j >= lonely + others ? 1 : minimal ? 2 : int(2, 8),
  }));
  const allCensus = round === 3;
  const populationSizes: Record<string, number> = {};
  groups.forEach((g, j) => {
    populationSizes[g.name] =
      j >= lonely + others
        ? 1
        : j < lonely
          ? rand() < 0.25
            ? 2
            : int(3, 20)
          : allCensus || rand() < 0.2
            ? g.k
            : int(g.k + 1, 8 * g.k);
  });
  const equalRate: EqualRate = round === 4 ? (index % 2 === 0 ? "half" : "third") : null;
  const docs = documentsOf(groups, equalRate, rand);
  const note = [
    `rule ${rule}`,
    `H = ${groups.length}`,
    `K = ${docs.ids.length}`,
    lonely > 0 ? `${lonely} lonely` : "",
    certainty ? "a certainty stratum" : "",
    allCensus ? "the other strata censuses" : "",
    minimal ? "ν = 1" : "",
    equalRate ? `all rates 1/${equalRate === "half" ? 2 : 3}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return {
    kind: "stratified",
    id: `lonely${index}`,
    levels: levelsOf(index),
    populationSizes,
    lonelyPsu: rule,
    note,
    ...docs,
  };
}

function generateTwoStage(index: number, rand: () => number): TwoStageSet {
  const { int, shuffle } = tools(rand);
  // T = 3..15 units, m = 2..6 sampled; m = T (first stage a census) in every sixth data set,
  // m = 2 (ν = 1) in places; data set 5 a census at both stages (se 0).
  const fullFirst = index % 6 === 2 || index === 5;
  const t = fullFirst ? int(3, 6) : int(3, 15);
  const m = fullFirst ? t : index % 7 === 3 ? 2 : int(2, Math.min(6, t));
  const all = Array.from({ length: t }, (_, u) => `u${String(u + 1).padStart(2, "0")}`);
  const sampled = shuffle(all).slice(0, m);
  const groups = sampled.map((name) => ({ name, k: int(2, 8) }));
  const secondStagePopulation: Record<string, number> = {};
  for (const g of groups) {
    const census = index === 5 || rand() < 0.25;
    secondStagePopulation[g.name] = census ? g.k : rand() < 0.15 ? g.k + 1 : int(g.k, 8 * g.k);
  }
  const equalRate: EqualRate = index === 9 ? "third" : index === 17 ? "half" : null;
  const docs = documentsOf(groups, equalRate, rand);
  const censusUnits = groups.filter((g) => secondStagePopulation[g.name] === g.k).length;
  const note = [
    `T = ${t}`,
    `m = ${m}`,
    `K = ${docs.ids.length}`,
    `N = ${docs.n.reduce((a, b) => a + b, 0)}`,
    censusUnits > 0 ? `${censusUnits} unit(s) with M_i = k_i` : "",
    equalRate ? `all rates 1/${equalRate === "half" ? 2 : 3}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return {
    kind: "two-stage",
    id: `ts${index}`,
    levels: levelsOf(index),
    firstStagePopulation: t,
    secondStagePopulation,
    note,
    ...docs,
  };
}

const rand = mulberry32(SEED);
const stratifiedSets = Array.from({ length: STRATIFIED_SETS }, (_, i) =>
  generateStratified(i, rand),
);
const twoStageSets = Array.from({ length: TWO_STAGE_SETS }, (_, i) => generateTwoStage(i, rand));
const lonelyRand = mulberry32(LONELY_SEED);
const lonelySets = Array.from({ length: LONELY_SETS_PER_RULE * LONELY_PSU_RULES.length }, (_, i) =>
  generateLonely(i, lonelyRand),
);

function statsOf(ds: Documents): DocumentStats {
  return documentStats({ ids: ds.ids, n: ds.n, s: ds.s });
}

function run(ds: DesignSet, level: number) {
  const stats = statsOf(ds);
  return ds.kind === "stratified"
    ? stratifiedEstimates(
        stats,
        { strata: ds.group, populationSizes: ds.populationSizes, lonelyPsu: ds.lonelyPsu },
        level,
      )
    : twoStageEstimates(
        stats,
        {
          units: ds.group,
          firstStagePopulation: ds.firstStagePopulation,
          secondStagePopulation: ds.secondStagePopulation,
        },
        level,
      );
}

// ---------------------------------------------------------------------------------------------
// Where the se is 0 in exact arithmetic (integer arithmetic on n_d and s_d, no rounding).

function groupsOf(ds: Documents): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  ds.group.forEach((g, d) => {
    groups.set(g, [...(groups.get(g) ?? []), d]);
  });
  return groups;
}

/** Every r_d equal: s_d·n_e = s_e·n_d. */
function allRatesEqual(ds: Documents, docs: readonly number[]): boolean {
  const [first] = docs;
  if (first === undefined) return true;
  return docs.every(
    (d) =>
      (ds.s[d] as number) * (ds.n[first] as number) ===
      (ds.s[first] as number) * (ds.n[d] as number),
  );
}

/**
 * Stratified: the variance is Σ_h (1 − f_h)·(spread of z_d in h), so it is 0 iff every stratum
 * with M_h > K_h has z_d constant (a lonely stratum, K_h = 1, trivially so: it adds 0 under
 * "remove" and "certainty", and "average" scales the others' sum). Macro z_d ∝ r_d; micro z_d ∝ s_d − R_c n_d with
 * R_c = Σ_h (M_h/K_h) S_h / Σ_h (M_h/K_h) N_h, i.e. (s_d − s_e)·N̂ = Ŝ·(n_d − n_e) (BigInt,
 * both totals scaled by the product of the K_h).
 */
function stratifiedSeZero(ds: StratifiedSet): { micro: boolean; macro: boolean } {
  const groups = [...groupsOf(ds)];
  const scale = groups.reduce((p, [, docs]) => p * BigInt(docs.length), 1n);
  let sHat = 0n;
  let nHat = 0n;
  for (const [name, docs] of groups) {
    const w = (BigInt(ds.populationSizes[name] as number) * scale) / BigInt(docs.length);
    for (const d of docs) {
      sHat += w * BigInt(ds.s[d] as number);
      nHat += w * BigInt(ds.n[d] as number);
    }
  }
  const sampled = groups.filter(
    ([name, docs]) => (ds.populationSizes[name] as number) > docs.length,
  );
  const micro = sampled.every(([, docs]) => {
    const [e] = docs as [number];
    return docs.every(
      (d) =>
        BigInt((ds.s[d] as number) - (ds.s[e] as number)) * nHat ===
        sHat * BigInt((ds.n[d] as number) - (ds.n[e] as number)),
    );
  });
  const macro = sampled.every(([, docs]) => allRatesEqual(ds, docs));
  if (ds.lonelyPsu !== "adjust") return { micro, macro };
  // "adjust": a lonely stratum adds (1 − 1/M_h)(M_h z_d)², 0 iff z_d = 0: s_d·N̂ = Ŝ·n_d for
  // micro; for macro r_d = r̄, taken only from every rate being equal.
  const lonely = sampled.filter(([, docs]) => docs.length === 1).map(([, [d]]) => d as number);
  return {
    micro:
      micro &&
      lonely.every((d) => BigInt(ds.s[d] as number) * nHat === sHat * BigInt(ds.n[d] as number)),
    macro:
      macro &&
      (lonely.length === 0 ||
        allRatesEqual(
          ds,
          ds.ids.map((_, d) => d),
        )),
  };
}

/** Two-stage: 0 by construction for a census at both stages or when every rate is equal. */
function twoStageSeZero(ds: TwoStageSet): { micro: boolean; macro: boolean } {
  const groups = [...groupsOf(ds)];
  const census =
    groups.length === ds.firstStagePopulation &&
    groups.every(([name, docs]) => ds.secondStagePopulation[name] === docs.length);
  const equal = allRatesEqual(
    ds,
    ds.ids.map((_, d) => d),
  );
  return { micro: census || equal, macro: census || equal };
}

function seZero(ds: DesignSet): { micro: boolean; macro: boolean } {
  return ds.kind === "stratified" ? stratifiedSeZero(ds) : twoStageSeZero(ds);
}

// ---------------------------------------------------------------------------------------------
// The reference case: per-query CSV aggregated per document here (R aggregates it itself).

const REFERENCE = "two_stage_types";
const REFERENCE_ID = "ref";
const REFERENCE_LEVELS = [0.95, 0.9];

interface ReferenceExpected {
  per_document: { doc_id: string[]; n: number[]; s: number[] };
  two_stage: {
    m: number;
    T: number;
    df: number;
    micro: { se: number; df: number; lower: number; upper: number; q: number };
    macro_hajek: { se: number; df: number; lower: number; upper: number; q: number };
  };
  oracles: {
    numpy: { two_stage: { micro: { estimate: number }; macro_hajek: { estimate: number } } };
  };
}

function referenceCase() {
  const csvPath = fileURLToPath(new URL(`${REFERENCE}.csv`, REFERENCE_DIR));
  const designPath = fileURLToPath(new URL(`${REFERENCE}.design.json`, REFERENCE_DIR));
  const design = JSON.parse(readFileSync(designPath, "utf8")) as {
    design: string;
    first_stage_population: number;
    second_stage_population: Record<string, number>;
  };
  const expected = JSON.parse(
    readFileSync(new URL(`${REFERENCE}.expected.json`, REFERENCE_DIR), "utf8"),
  ) as ReferenceExpected;
  const [header, ...lines] = readFileSync(csvPath, "utf8").trim().split(/\r?\n/);
  const cols = (header as string).split(",");
  const [doc, psu, score] = ["doc_id", "psu", "score"].map((c) => cols.indexOf(c)) as [
    number,
    number,
    number,
  ];
  const perDoc = new Map<string, { psu: string; n: number; s: number }>();
  for (const line of lines) {
    const f = line.split(",");
    const id = f[doc] as string;
    const row = perDoc.get(id) ?? { psu: f[psu] as string, n: 0, s: 0 };
    if (row.psu !== f[psu]) throw new Error(`${REFERENCE}: document ${id} in two units`);
    row.n += 1;
    row.s += Number(f[score]);
    perDoc.set(id, row);
  }
  // Code-point order (the expected.json's documents_order).
  const ids = [...perDoc.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = ids.map((id) => perDoc.get(id) as { psu: string; n: number; s: number });
  return {
    csvPath,
    designPath,
    design,
    expected,
    results: lines.length,
    docs: {
      ids,
      group: rows.map((r) => r.psu),
      n: rows.map((r) => r.n),
      s: rows.map((r) => r.s),
    } satisfies Documents,
  };
}

const reference = referenceCase();
const referenceSet: TwoStageSet = {
  kind: "two-stage",
  id: REFERENCE_ID,
  levels: REFERENCE_LEVELS,
  firstStagePopulation: reference.design.first_stage_population,
  secondStagePopulation: reference.design.second_stage_population,
  note: REFERENCE,
  ...reference.docs,
};

// ---------------------------------------------------------------------------------------------
// One Rscript run for every data set.

function frame(ds: Documents) {
  return { doc: ds.ids, n: ds.n, s: ds.s };
}

const rscript = rscriptOnce(
  {
    script: R_SCRIPT_PATH,
    packages: "survey and jsonlite",
    name: "ragci-r-crosscheck-designs",
    timeoutMs: 110_000,
  },
  () => ({
    stratified: [...stratifiedSets, ...lonelySets].map((ds) => ({
      id: ds.id,
      levels: ds.levels,
      lonely: ds.lonelyPsu,
      stratum: ds.group,
      Mh: ds.group.map((g) => ds.populationSizes[g]),
      ...frame(ds),
    })),
    twostage: twoStageSets.map((ds) => ({
      id: ds.id,
      levels: ds.levels,
      psu: ds.group,
      T: ds.firstStagePopulation,
      Mi: ds.group.map((g) => ds.secondStagePopulation[g]),
      ...frame(ds),
    })),
    reference: [
      {
        id: REFERENCE_ID,
        levels: REFERENCE_LEVELS,
        csv: reference.csvPath,
        design: reference.designPath,
      },
    ],
  }),
);
const runR = rscript.run;

function rValues(id: string): Map<string, number> {
  const r = runR().values.get(id);
  if (!r) throw new Error(`data set ${id}: no R output`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Comparison with a record of the worst difference per quantity.

const worst = new Map<string, { value: number; at: string }>();
/** The lonely-PSU data sets' worst differences are kept per rule. */
const LONELY_RULE_OF = new Map(lonelySets.map((ds) => [ds.id, ds.lonelyPsu]));

function check(
  id: string,
  quantity: string,
  actual: number | null | undefined,
  expected: number | undefined,
  {
    zero = false,
    rel = REL,
    against = "R",
  }: { zero?: boolean; rel?: number; against?: string } = {},
): void {
  const where = `data set ${id}, ${quantity}`;
  if (expected === undefined || Number.isNaN(expected)) {
    expect.soft(false, `${where}: ${against} gave no value`).toBe(true);
    return;
  }
  if (typeof actual !== "number" || !Number.isFinite(actual)) {
    expect.soft(false, `${where}: ragci gave ${actual} (${against} ${expected})`).toBe(true);
    return;
  }
  const abs = Math.abs(actual - expected);
  const relDiff =
    expected === 0 ? (actual === 0 ? 0 : Number.POSITIVE_INFINITY) : abs / Math.abs(expected);
  const tolerance = zero ? ABS_AT_ZERO + rel * Math.abs(expected) : rel * Math.abs(expected);
  const rule = LONELY_RULE_OF.get(id);
  const key = `${against === "R" ? "" : `[vs ${against}] `}${rule ? `[lonely-psu ${rule}] ` : ""}${quantity.replace(/@[\d.]+$/, "")}${zero ? " [se 0 in exact arithmetic: absolute]" : ""}`;
  const measure = zero ? abs : relDiff;
  const w = worst.get(key);
  if (!w || measure > w.value) worst.set(key, { value: measure, at: id });
  expect
    .soft(
      abs <= tolerance,
      `${where}: ragci ${actual.toPrecision(17)} vs ${against} ${expected.toPrecision(17)} (abs diff ${abs.toExponential(3)}, rel diff ${relDiff.toExponential(3)}, tolerance ${tolerance.toExponential(3)})`,
    )
    .toBe(true);
}

/** Data round trip, then estimate, se, df, lower, upper of micro and macro at each level. */
function compareWithR(ds: DesignSet): void {
  const r = rValues(ds.id);
  const zero = seZero(ds);
  check(ds.id, "K", ds.ids.length, r.get("data.K"));
  check(
    ds.id,
    "N",
    ds.n.reduce((a, b) => a + b, 0),
    r.get("data.N"),
  );
  check(
    ds.id,
    "sum of s",
    ds.s.reduce((a, b) => a + b, 0),
    r.get("data.sum_s"),
  );
  const groups = groupsOf(ds).size;
  check(
    ds.id,
    ds.kind === "stratified" ? "H" : "m",
    groups,
    r.get(ds.kind === "stratified" ? "data.H" : "data.m"),
  );
  // ν = K − H or m − 1, also stated directly.
  check(
    ds.id,
    "degf (K - H or m - 1)",
    ds.kind === "stratified" ? ds.ids.length - groups : groups - 1,
    r.get("degf"),
  );
  if (ds.kind === "stratified" && r.get("error") === 1) {
    expectSameFailure(ds, r);
    return;
  }
  for (const level of ds.levels) {
    const result = run(ds, level);
    for (const estimand of ["micro", "macro"] as const) {
      const x = result[estimand];
      const z = zero[estimand];
      check(ds.id, `${estimand} estimate@${level}`, x.estimate, r.get(`${estimand}.estimate`));
      check(ds.id, `${estimand} se@${level}`, x.se, r.get(`${estimand}.se`), { zero: z });
      check(ds.id, `${estimand} df@${level}`, x.df, r.get("degf"));
      check(ds.id, `${estimand} lower@${level}`, x.lower, r.get(`${estimand}.lower@${level}`), {
        zero: z,
      });
      check(ds.id, `${estimand} upper@${level}`, x.upper, r.get(`${estimand}.upper@${level}`), {
        zero: z,
      });
    }
  }
}

/** The strata with one sampled document of M_h > 1 (lonely PSUs). */
function lonelyStrata(ds: StratifiedSet): string[] {
  return [...groupsOf(ds)]
    .filter(([name, docs]) => docs.length === 1 && (ds.populationSizes[name] as number) > 1)
    .map(([name]) => name);
}

let failuresCompared = 0;

/** R stopped ("fail"): ragci must throw invalid-design, both naming a lonely stratum. */
function expectSameFailure(ds: StratifiedSet, r: Map<string, number>): void {
  const lonely = lonelyStrata(ds);
  const rStratum = [...groupsOf(ds).keys()][r.get("error.stratum") as number];
  expect(lonely, `data set ${ds.id}: R stopped on stratum ${rStratum}`).toContain(rStratum);
  let thrown: unknown;
  try {
    run(ds, 0.95);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `data set ${ds.id}: ragci gave numbers where R stopped`).toBeInstanceOf(
    RagciError,
  );
  const error = thrown as RagciError;
  expect(error.code).toBe("invalid-design");
  expect(lonely).toContain(error.context.stratum);
  expect(error.message).toContain(`stratum "${error.context.stratum}" has one sampled document`);
  expect(error.message).toContain("`lonelyPsu`");
  failuresCompared += 1;
}

// ---------------------------------------------------------------------------------------------

describe("ragci stratified and two-stage design estimators agree with R survey", () => {
  it("runs Rscript once with survey and jsonlite for every data set", () => {
    const { values, versions } = runR();
    expect(versions.get("survey"), "survey version").toBeDefined();
    expect(versions.get("jsonlite"), "jsonlite version").toBeDefined();
    expect([...values.keys()].sort()).toEqual(
      [...stratifiedSets, ...lonelySets, ...twoStageSets, referenceSet].map((d) => d.id).sort(),
    );
  }, 120_000);

  it("covers the intended cases", () => {
    const sizes = [...stratifiedSets, ...twoStageSets].flatMap((d) => d.n);
    expect(Math.min(...sizes)).toBe(1);
    expect(Math.max(...sizes)).toBe(80);
    const levels09 = [...stratifiedSets, ...twoStageSets].filter((d) => d.levels.includes(0.9));
    expect(levels09.length).toBeGreaterThanOrEqual(10);

    const st = stratifiedSets.map((ds) => {
      const g = [...groupsOf(ds)];
      return {
        h: g.length,
        kh: g.map(([, docs]) => docs.length),
        census: g.filter(([name, docs]) => ds.populationSizes[name] === docs.length).length,
        plusOne: g.filter(([name, docs]) => ds.populationSizes[name] === docs.length + 1).length,
        mh: g.map(([name, docs]) => (ds.populationSizes[name] as number) / docs.length),
      };
    });
    expect(Math.min(...st.map((x) => x.h))).toBe(2);
    expect(Math.max(...st.map((x) => x.h))).toBe(5);
    expect(Math.min(...st.flatMap((x) => x.kh))).toBe(2);
    expect(Math.max(...st.flatMap((x) => x.kh))).toBeGreaterThanOrEqual(11);
    expect(Math.max(...st.flatMap((x) => x.kh))).toBeLessThanOrEqual(12);
    expect(Math.max(...st.flatMap((x) => x.mh))).toBeLessThanOrEqual(10);
    expect(st.filter((x) => x.census > 0 && x.census < x.h).length).toBeGreaterThanOrEqual(10);
    expect(st.filter((x) => x.plusOne > 0).length).toBeGreaterThanOrEqual(5);
    expect(stratifiedSets.filter((ds) => stratifiedSeZero(ds).macro).length).toBeGreaterThanOrEqual(
      3,
    );

    const ts = twoStageSets.map((ds) => {
      const g = [...groupsOf(ds)];
      return {
        t: ds.firstStagePopulation,
        m: g.length,
        ki: g.map(([, docs]) => docs.length),
        census: g.filter(([name, docs]) => ds.secondStagePopulation[name] === docs.length).length,
      };
    });
    expect(Math.min(...ts.map((x) => x.t))).toBe(3);
    expect(Math.max(...ts.map((x) => x.t))).toBeGreaterThanOrEqual(14);
    expect(Math.max(...ts.map((x) => x.t))).toBeLessThanOrEqual(15);
    expect(Math.min(...ts.map((x) => x.m))).toBe(2);
    expect(Math.max(...ts.map((x) => x.m))).toBe(6);
    expect(ts.every((x) => x.m <= x.t)).toBe(true);
    expect(ts.filter((x) => x.m === x.t).length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...ts.flatMap((x) => x.ki))).toBe(2);
    expect(Math.max(...ts.flatMap((x) => x.ki))).toBe(8);
    expect(ts.filter((x) => x.census > 0 && x.census < x.m).length).toBeGreaterThanOrEqual(10);
    expect(twoStageSets.filter((ds) => twoStageSeZero(ds).macro).length).toBeGreaterThanOrEqual(3);
  });

  it.each(stratifiedSets.map((ds) => ({ ds, name: `${ds.id}: ${ds.note}` })))(
    "stratified $name",
    ({ ds }) => compareWithR(ds),
  );

  it("covers the intended lonely-PSU cases", () => {
    const r = runR();
    const sets = lonelySets.map((ds) => {
      const g = [...groupsOf(ds)];
      const single = g.filter(([, docs]) => docs.length === 1);
      return {
        rule: ds.lonelyPsu,
        lonely: lonelyStrata(ds).length,
        certainty: single.filter(([name]) => ds.populationSizes[name] === 1).length,
        df: ds.ids.length - g.length,
        failed: r.values.get(ds.id)?.get("error") === 1,
        zero: stratifiedSeZero(ds).macro,
      };
    });
    for (const rule of LONELY_PSU_RULES) {
      const of = sets.filter((x) => x.rule === rule);
      expect(of.length, rule).toBe(LONELY_SETS_PER_RULE);
      expect(of.filter((x) => x.certainty > 0).length, rule).toBeGreaterThanOrEqual(3);
      expect(of.filter((x) => x.df === 1).length, rule).toBeGreaterThanOrEqual(1);
      if (rule === "fail") {
        // R stops exactly where a lonely stratum is; a certainty stratum alone is no error.
        expect(of.every((x) => x.failed === x.lonely > 0)).toBe(true);
        expect(of.filter((x) => x.failed).length).toBeGreaterThanOrEqual(4);
        expect(of.filter((x) => !x.failed && x.certainty > 0).length).toBeGreaterThanOrEqual(4);
      } else {
        expect(
          of.every((x) => x.lonely > 0 && !x.failed),
          rule,
        ).toBe(true);
        expect(of.filter((x) => x.lonely >= 2).length, rule).toBeGreaterThanOrEqual(2);
        expect(of.filter((x) => x.lonely > 0 && x.certainty > 0).length, rule).toBeGreaterThan(0);
        expect(of.filter((x) => x.zero).length, rule).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it.each(lonelySets.map((ds) => ({ ds, name: `${ds.id}: ${ds.note}` })))(
    "stratified, one-document strata, $name",
    ({ ds }) => compareWithR(ds),
  );

  it.each(twoStageSets.map((ds) => ({ ds, name: `${ds.id}: ${ds.note}` })))(
    "two-stage $name",
    ({ ds }) => compareWithR(ds),
  );

  it(`reference case ${REFERENCE}: per-document aggregation matches expected.json and R`, () => {
    const { expected, docs, results } = reference;
    expect(reference.design.design).toBe("two-stage");
    expect(docs.ids).toEqual(expected.per_document.doc_id);
    expect(docs.n).toEqual(expected.per_document.n);
    expect(docs.s).toEqual(expected.per_document.s);
    const r = rValues(REFERENCE_ID);
    check(REFERENCE_ID, "results (CSV rows)", results, r.get("data.results"));
    check(REFERENCE_ID, "T", referenceSet.firstStagePopulation, expected.two_stage.T, {
      against: "expected.json",
    });
    check(REFERENCE_ID, "m", groupsOf(docs).size, expected.two_stage.m, {
      against: "expected.json",
    });
  });

  it(`reference case ${REFERENCE}: agrees with R survey`, () => compareWithR(referenceSet));

  it(`reference case ${REFERENCE}: agrees with expected.json (two_stage.micro, macro_hajek) to 1e-12`, () => {
    const { expected } = reference;
    const result = run(referenceSet, 0.95);
    const pairs = [
      ["micro", result.micro, expected.two_stage.micro, expected.oracles.numpy.two_stage.micro],
      [
        "macro",
        result.macro,
        expected.two_stage.macro_hajek,
        expected.oracles.numpy.two_stage.macro_hajek,
      ],
    ] as const;
    for (const [estimand, x, e, numpy] of pairs) {
      const opts = { rel: REFERENCE_REL, against: "expected.json" };
      check(REFERENCE_ID, `${estimand} estimate`, x.estimate, numpy.estimate, opts);
      check(REFERENCE_ID, `${estimand} se`, x.se, e.se, opts);
      check(REFERENCE_ID, `${estimand} df`, x.df, e.df, opts);
      check(REFERENCE_ID, `${estimand} lower`, x.lower, e.lower, opts);
      check(REFERENCE_ID, `${estimand} upper`, x.upper, e.upper, opts);
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
      `R designs cross-check: ${stratifiedSets.length} stratified + ${lonelySets.length} stratified with one-document strata (${failuresCompared} where R and ragci both stop under "fail") + ${twoStageSets.length} two-stage data sets + ${REFERENCE}, Rscript ${rRun.seconds.toFixed(1)} s (${versions})\n${rows.join("\n")}`,
    );
  });
});
