import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { writeGuideSection } from "./guideSection.mjs";
import { differences, ensureCensuses, pairedSample } from "./pairedDifferences.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { tQuantile } = await import(join(root, "dist/core/numeric/distributions.js"));
const { FEWEST_DIFFERING_DOCUMENTS: FEWEST, differingDocuments } = await import(
  join(root, "dist/core/diagnostics/differingDocuments.js")
);

const reps = Number(process.env.REPS ?? 1000);
const replicates = Number(process.env.B ?? 199);
const KS = [5, 10, 20, 50];

ensureCensuses();

/** Hall (1992), "On the removal of skewness by transformation", JRSS B 54: the candidate. */
function hallT(rates, fpc, level) {
  const k = rates.length;
  const mean = rates.reduce((x, y) => x + y, 0) / k;
  let m2 = 0;
  let m3 = 0;
  for (const r of rates) {
    m2 += (r - mean) ** 2;
    m3 += (r - mean) ** 3;
  }
  const se = Math.sqrt((m2 / (k - 1) / k) * fpc);
  if (!(se > 0)) return null;
  const gamma = m3 / k / (m2 / k) ** 1.5;
  const a = gamma / Math.sqrt(k);
  const b = a / 6;
  const inverse = (y) => (Math.abs(a) < 1e-12 ? y - b : (3 / a) * (Math.cbrt(1 + a * (y - b)) - 1));
  const q = tQuantile(1 - (1 - level) / 2, k - 1);
  return { lower: mean - se * inverse(q), upper: mean - se * inverse(-q) };
}

const CENSUSES = [
  {
    name: "covidqa-hit5",
    label: "COVID-QA hit@5",
    file: join(root, "examples/covidqa-retrieval.csv"),
    columns: { doc: "doc_id", query: "query_id", system: "system", metric: "hit5" },
    pair: { a: "bm25", b: "tfidf" },
  },
  {
    name: "covidqa-hit1",
    label: "COVID-QA hit@1",
    file: join(root, "examples/covidqa-retrieval.csv"),
    columns: { doc: "doc_id", query: "query_id", system: "system", metric: "hit1" },
    pair: { a: "bm25", b: "tfidf" },
  },
  {
    name: "covidqa-rr",
    label: "COVID-QA RR",
    file: join(root, "examples/covidqa-retrieval.csv"),
    columns: { doc: "doc_id", query: "query_id", system: "system", metric: "rr" },
    pair: { a: "bm25", b: "tfidf" },
  },
  {
    name: "paired-synthetic",
    label: "paired, synthetic sizes",
    file: join(here, "censuses/paired-synthetic.csv"),
    columns: { doc: "doc_id", query: "query_id", system: "system", metric: "hit" },
    pair: { a: "a", b: "b" },
  },
  {
    name: "paired-pareto",
    label: "paired, power-law sizes",
    file: join(here, "censuses/paired-pareto.csv"),
    columns: { doc: "doc_id", query: "query_id", system: "system", metric: "hit" },
    pair: { a: "a", b: "b" },
  },
  // Real, added after the intervals were chosen (tatqa.py): held out of the quoted ranges.
  ...["hit5", "rr"].map((metric) => ({
    name: `tatqa-${metric}`,
    label: `TAT-QA ${metric === "rr" ? "RR" : "hit@5"} (held out)`,
    heldOut: true,
    file: join(here, "censuses/tatqa-retrieval.csv"),
    columns: { doc: "doc_id", query: "query_id", system: "system", metric },
    pair: { a: "bm25", b: "tfidf" },
  })),
];

const METHODS = ["micro/cr2", "macro/t", "macro/t-differing", "macro/bootstrap-t", "macro/hall-t"];
const level = 0.95;
const results = {};
for (const c of CENSUSES) {
  const started = Date.now();
  const census = differences(c.file, { ...c.columns, ...c.pair });
  const M = census.ids.length;
  const N = census.n.reduce((x, y) => x + y, 0);
  const truth = {
    micro: census.s.reduce((x, y) => x + y, 0) / N,
    macro: census.s.reduce((x, s, d) => x + s / census.n[d], 0) / M,
  };
  const tied = census.s.filter((s) => s === 0).length / M;
  const cells = [];
  for (const k of KS.filter((k) => k < M)) {
    for (const fpc of [false, true]) {
      const tally = Object.fromEntries(
        METHODS.map((m) => [m, { covered: 0, above: 0, below: 0, width: 0, coveredIf: 0 }]),
      );
      let enough = 0;
      for (let i = 0; i < reps; i++) {
        const { sample, analysis } = pairedSample(census, { k, i, fpc, level, replicates });
        const rates = Array.from(sample.s, (s, d) => s / sample.n[d]);
        const differing = differingDocuments(sample) >= FEWEST;
        if (differing) enough++;
        for (const key of METHODS) {
          const [estimand, method] = key.split("/");
          const interval =
            method === "hall-t"
              ? hallT(rates, fpc ? 1 - k / M : 1, level)
              : analysis[estimand].intervals[method];
          const t = tally[key];
          const ok = interval && interval.available !== false;
          const target = truth[estimand];
          if (ok && interval.lower <= target && target <= interval.upper) {
            t.covered++;
            if (differing) t.coveredIf++;
          } else if (ok && target > interval.upper) t.above++;
          else if (ok) t.below++;
          else t.above += 0; // unavailable: a miss on neither side
          if (ok) t.width += interval.upper - interval.lower;
        }
      }
      const methods = Object.fromEntries(
        Object.entries(tally).map(([key, t]) => [
          key,
          {
            coverage: t.covered / reps,
            mcSe: Math.sqrt(((t.covered / reps) * (1 - t.covered / reps)) / reps),
            truthAbove: t.above / reps,
            truthBelow: t.below / reps,
            meanWidth: t.width / reps,
            coverageWhenEnoughDiffer: enough > 0 ? t.coveredIf / enough : null,
          },
        ]),
      );
      cells.push({
        k,
        fpc,
        shareEnoughDiffer: enough / reps,
        samplesEnoughDiffer: enough,
        methods,
      });
    }
  }
  results[c.name] = {
    label: c.label,
    heldOut: c.heldOut === true,
    documents: M,
    results: N,
    tied,
    truth,
    cells,
  };
  console.error(`${c.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
writeFileSync(
  join(here, "paired.json"),
  `${JSON.stringify({ reps, replicates, seed: 1, level, fewestDiffering: FEWEST, results }, null, 1)}\n`,
);

const pct = (x) => (x === null ? "—" : (100 * x).toFixed(1));
const LABELS = {
  "micro/cr2": "micro `cr2` (recommended)",
  "macro/t": "macro `t` (ν = K − 1)",
  "macro/t-differing": "macro `t-differing` (ν = D − 1, D documents that differ; recommended)",
  "macro/bootstrap-t": "macro `bootstrap-t`",
  "macro/hall-t": "macro Hall's skewness-corrected t (not shipped)",
};
const table = (fpc) => {
  const head = `| ${fpc ? "with fpc" : "without fpc"} | ${KS.map((k) => `K = ${k}`).join(" | ")} |`;
  const rule = `|---|${KS.map(() => "---:").join("|")}|`;
  const rows = [];
  for (const c of CENSUSES) {
    const r = results[c.name];
    rows.push(
      `| **${r.label}** (M = ${r.documents}, ${pct(r.tied)}% of documents tied) | ${KS.map((k) => {
        const cell = r.cells.find((x) => x.k === k && x.fpc === fpc);
        return cell
          ? `${pct(cell.shareEnoughDiffer)}% of samples with ≥ ${FEWEST} differing`
          : "K ≥ M";
      }).join(" | ")} |`,
    );
    for (const key of METHODS) {
      rows.push(
        `| ${LABELS[key]} | ${KS.map((k) => {
          const m = r.cells.find((x) => x.k === k && x.fpc === fpc)?.methods[key];
          return m
            ? `${pct(m.coverage)} ± ${pct(m.mcSe)} (${m.meanWidth.toPrecision(2)}); ${pct(m.coverageWhenEnoughDiffer)}`
            : "";
        }).join(" | ")} |`,
      );
    }
  }
  return [head, rule, ...rows].join("\n");
};
const guide = [
  `Coverage in % of nominal 95% intervals of the difference b − a ± Monte Carlo se (mean width), then the coverage among the samples in which at least ${FEWEST} documents differ (a non-zero summed difference); ${reps} repetitions per cell, B = ${replicates} for the bootstrap, seed 1, SRS. Truth below or above an interval is in paired.json.`,
  "",
  table(false),
  "",
  table(true),
].join("\n");
writeFileSync(
  join(here, "PAIRED.md"),
  alignTables(
    `# Paired coverage studies\n\nGenerated by \`node bench/method-guide/paired.mjs\`; do not edit.\n\n${guide}\n`,
  ),
);
writeGuideSection("paired-guide", guide);
console.error("wrote bench/method-guide/paired.json, PAIRED.md and docs/choosing-an-interval.md");
