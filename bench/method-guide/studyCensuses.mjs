// The censuses the rule studies (withheld.mjs) and the width study (inflation.mjs) draw from:
// one system's per-document sums, or a pair's per-document sums of b − a.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { differences } from "./pairedDifferences.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { analyze } = await import(join(root, "dist/core/analyze.js"));
const { sampleIndices, sampleStats } = await import(
  join(root, "dist/core/simulation/sampleDocuments.js")
);

const csv = (file) => {
  const [head, ...lines] = readFileSync(file, "utf8").trim().split(/\r?\n/);
  const col = Object.fromEntries(head.split(",").map((name, i) => [name, i]));
  return { col, rows: lines.map((l) => l.split(",")) };
};
const toStats = (docs, binary) => {
  const ids = [...docs.keys()].sort();
  const pick = (f) => Float64Array.from(ids, (id) => docs.get(id)[f]);
  return { ids, n: pick("n"), s: pick("s"), ss: pick("ss"), binary, min: binary ? 0 : -1, max: 1 };
};

/** doc_id,n,s,ss of 0/1 results (censuses.py, examples/synthetic-census.csv). */
function aggregated(file) {
  const { rows } = csv(file);
  const docs = new Map(rows.map((f) => [f[0], { n: +f[1], s: +f[2], ss: +f[3] }]));
  return { ...toStats(docs, true), min: 0 };
}

/** One system's per-document sums from a per-query CSV. */
function perQuery(file, metric, system, binary) {
  const { col, rows } = csv(file);
  const docs = new Map();
  for (const f of rows) {
    if (f[col.system] !== system) continue;
    const v = Number(f[col[metric]]);
    const acc = docs.get(f[col.doc_id]) ?? { n: 0, s: 0, ss: 0 };
    acc.n += 1;
    acc.s += v;
    acc.ss += v * v;
    docs.set(f[col.doc_id], acc);
  }
  return { ...toStats(docs, binary), min: 0 };
}

/** Per-document sums of b − a from a per-query CSV (doc_id, query_id, system: as compare pairs them). */
const pairDifferences = (file, metric, a, b) =>
  differences(file, { doc: "doc_id", query: "query_id", system: "system", metric, a, b });

const covid = join(root, "examples/covidqa-retrieval.csv");
// Real, and added after the rules were chosen: held out like heldout.py's (tatqa.py).
const tatqa = join(here, "censuses", "tatqa-retrieval.csv");
const gen = (name) => join(here, "censuses", `${name}.csv`);
export const CENSUSES = [
  {
    name: "synthetic",
    label: "synthetic (bundled)",
    stats: () => aggregated(join(root, "examples/synthetic-census.csv")),
  },
  { name: "even", label: "even sizes", stats: () => aggregated(gen("even")) },
  { name: "heavy", label: "heavy tail", stats: () => aggregated(gen("heavy")) },
  { name: "heavier", label: "heavier tail", stats: () => aggregated(gen("heavier")) },
  { name: "pareto", label: "power-law tail (α = 1.1)", stats: () => aggregated(gen("pareto")) },
  {
    name: "covidqa-hit5",
    label: "COVID-QA hit@5",
    stats: () => perQuery(covid, "hit5", "bm25", true),
  },
  { name: "covidqa-rr", label: "COVID-QA RR", stats: () => perQuery(covid, "rr", "bm25", false) },
  {
    name: "heldout-lognormal-1.5",
    label: "held out: log-normal σ = 1.5",
    heldOut: true,
    stats: () => aggregated(gen("heldout-lognormal-1.5")),
  },
  {
    name: "heldout-lognormal-2.8",
    label: "held out: log-normal σ = 2.8",
    heldOut: true,
    stats: () => aggregated(gen("heldout-lognormal-2.8")),
  },
  {
    name: "heldout-pareto-1.5",
    label: "held out: power law α = 1.5",
    heldOut: true,
    stats: () => aggregated(gen("heldout-pareto-1.5")),
  },
  {
    name: "heldout-pareto-0.8",
    label: "held out: power law α = 0.8",
    heldOut: true,
    stats: () => aggregated(gen("heldout-pareto-0.8")),
  },
  {
    name: "heldout-tatqa-hit5",
    label: "held out, real: TAT-QA hit@5",
    heldOut: true,
    stats: () => perQuery(tatqa, "hit5", "bm25", true),
  },
  {
    name: "heldout-tatqa-rr",
    label: "held out, real: TAT-QA RR",
    heldOut: true,
    stats: () => perQuery(tatqa, "rr", "bm25", false),
  },
  {
    name: "paired-covidqa-hit5",
    label: "paired: COVID-QA hit@5, TF-IDF − BM25",
    paired: true,
    stats: () => pairDifferences(covid, "hit5", "bm25", "tfidf"),
  },
  {
    name: "paired-covidqa-rr",
    label: "paired: COVID-QA RR, TF-IDF − BM25",
    paired: true,
    stats: () => pairDifferences(covid, "rr", "bm25", "tfidf"),
  },
  {
    name: "paired-synthetic",
    label: "paired: synthetic sizes",
    paired: true,
    stats: () => pairDifferences(gen("paired-synthetic"), "hit", "a", "b"),
  },
  {
    name: "paired-pareto",
    label: "paired: power-law sizes",
    paired: true,
    stats: () => pairDifferences(gen("paired-pareto"), "hit", "a", "b"),
  },
  {
    name: "heldout-paired-tatqa-hit5",
    label: "held out, paired, real: TAT-QA hit@5, TF-IDF − BM25",
    paired: true,
    heldOut: true,
    stats: () => pairDifferences(tatqa, "hit5", "bm25", "tfidf"),
  },
  {
    name: "heldout-paired-tatqa-rr",
    label: "held out, paired, real: TAT-QA RR, TF-IDF − BM25",
    paired: true,
    heldOut: true,
    stats: () => pairDifferences(tatqa, "rr", "bm25", "tfidf"),
  },
  {
    name: "heldout-paired",
    label: "held out, paired: log-normal σ = 2.8, 50% tied",
    paired: true,
    heldOut: true,
    stats: () => pairDifferences(gen("heldout-paired"), "hit", "a", "b"),
  },
];

const sum = (v) => v.reduce((x, y) => x + y, 0);

/** The census's micro and macro values: what every interval of a sample is scored against. */
export function censusTruth(census) {
  const M = census.ids.length;
  return {
    micro: sum(census.s) / sum(census.n),
    macro: sum(Array.from(census.s, (s, d) => s / census.n[d])) / M,
  };
}

/** SRS sample i of K of the census's documents, seed 1, stream i: every rule study's sample i. */
export const drawnSample = (census, k, i) =>
  sampleStats(census, sampleIndices(k, census.ids.length, 1, i));

/** The analysis from the sample alone (B = 0) of one sample of the census, with or without the fpc. */
export const analyseSample = (sample, census, { fpc, paired, level }) =>
  analyze(sample, {
    level,
    population: fpc ? census.ids.length : null,
    replicates: 0,
    ...(paired ? { differences: true } : {}),
  });

/**
 * The analysis from the sample alone (B = 0) of each of `reps` SRS samples of K documents,
 * seed 1, repetition i from stream i: the samples every study of the rule shares.
 */
export function* analysedSamples(census, { k, fpc, paired, reps, level }) {
  for (let i = 0; i < reps; i++) {
    yield analyseSample(drawnSample(census, k, i), census, { fpc, paired, level });
  }
}
