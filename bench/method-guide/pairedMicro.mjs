import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { coverageText } from "./coverageText.mjs";
import { differences, ensureCensuses, pairedSample, sampleStats } from "./pairedDifferences.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { tQuantile } = await import(join(root, "dist/core/numeric/distributions.js"));
const { cv3Variance } = await import(join(root, "dist/core/variance/cv3.js"));
const { logitCv3Interval } = await import(join(root, "dist/core/intervals/logitCv3Interval.js"));
const { cv3DegreesOfFreedom } = await import(
  join(root, "dist/core/variance/cv3DegreesOfFreedom.js")
);
const { FEWEST_DIFFERING_DOCUMENTS: FEWEST, differingDocuments } = await import(
  join(root, "dist/core/diagnostics/differingDocuments.js")
);

const reps = Number(process.env.REPS ?? 1000);
const replicates = Number(process.env.B ?? 199);
const only = process.env.ONLY ?? null;
const KS = [10, 20, 50];
const level = 0.95;

ensureCensuses({ heldOut: true });

const sum = (v) => v.reduce((x, y) => x + y, 0);

/** Hall (1992), JRSS B 54, on values whose mean is the estimate; se = sd/√K · √fpc. */
function hallT(values, fpc) {
  const k = values.length;
  const mean = sum(values) / k;
  let m2 = 0;
  let m3 = 0;
  for (const r of values) {
    m2 += (r - mean) ** 2;
    m3 += (r - mean) ** 3;
  }
  const se = Math.sqrt((m2 / (k - 1) / k) * fpc);
  if (!(se > 0)) return { lower: mean, upper: mean };
  const gamma = m3 / k / (m2 / k) ** 1.5;
  const a = gamma / Math.sqrt(k);
  const b = a / 6;
  const inverse = (y) => (Math.abs(a) < 1e-12 ? y - b : (3 / a) * (Math.cbrt(1 + a * (y - b)) - 1));
  const q = tQuantile(1 - (1 - level) / 2, k - 1);
  return { lower: mean - se * inverse(q), upper: mean - se * inverse(-q) };
}

/**
 * MOVER (Zou & Donner 2008, Stat Med 27:1693; Newcombe 1998 for paired proportions): the
 * difference p_b − p_a from each system's own logit-cv3 interval (l, u), recovering the
 * variances from their distances to the estimates, with r the correlation of the two micro
 * estimates (their jackknife terms u_d / (N − n_d), u_d = s_d − p n_d):
 *   L = d − √((p_b − l_b)² + (u_a − p_a)² − 2r(p_b − l_b)(u_a − p_a)),
 *   U = d + √((u_b − p_b)² + (p_a − l_a)² − 2r(u_b − p_b)(p_a − l_a)).
 * A system's interval that is unavailable (its rate 0 or 1, or every rate equal) adds no width.
 */
function moverLogitCv3(a, b, population) {
  const n = a.n;
  const N = sum(n);
  const pa = sum(a.s) / N;
  const pb = sum(b.s) / N;
  const ia = logitCv3Interval(a, level, true, population);
  const ib = logitCv3Interval(b, level, true, population);
  const [la, ua] = ia.available ? [ia.lower, ia.upper] : [pa, pa];
  const [lb, ub] = ib.available ? [ib.lower, ib.upper] : [pb, pb];
  let aa = 0;
  let bb = 0;
  let ab = 0;
  for (let d = 0; d < n.length; d++) {
    const ta = (a.s[d] - pa * n[d]) / (N - n[d]);
    const tb = (b.s[d] - pb * n[d]) / (N - n[d]);
    aa += ta * ta;
    bb += tb * tb;
    ab += ta * tb;
  }
  const r = aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
  const d = pb - pa;
  const root = (x, y) => Math.sqrt(Math.max(0, x * x + y * y - 2 * r * x * y));
  return { lower: d - root(pb - lb, ua - pa), upper: d + root(ub - pb, pa - la) };
}

const around = (estimate, se, df) => {
  if (!(se > 0)) return { lower: estimate, upper: estimate };
  const q = tQuantile(1 - (1 - level) / 2, df);
  return { lower: estimate - q * se, upper: estimate + q * se };
};

const covid = join(root, "examples/covidqa-retrieval.csv");
const gen = (name) => join(here, "censuses", `${name}.csv`);
const covidColumns = (metric) => ({ doc: "doc_id", query: "query_id", system: "system", metric });
const genColumns = { doc: "doc_id", query: "query_id", system: "system", metric: "hit" };
const CENSUSES = [
  {
    name: "covidqa-hit5",
    label: "COVID-QA hit@5",
    file: covid,
    columns: covidColumns("hit5"),
    pair: { a: "bm25", b: "tfidf" },
  },
  {
    name: "covidqa-hit1",
    label: "COVID-QA hit@1",
    file: covid,
    columns: covidColumns("hit1"),
    pair: { a: "bm25", b: "tfidf" },
  },
  {
    name: "covidqa-rr",
    label: "COVID-QA RR",
    file: covid,
    columns: covidColumns("rr"),
    pair: { a: "bm25", b: "tfidf" },
  },
  {
    name: "paired-synthetic",
    label: "paired, synthetic sizes",
    file: gen("paired-synthetic"),
    columns: genColumns,
    pair: { a: "a", b: "b" },
  },
  {
    name: "paired-pareto",
    label: "paired, power-law sizes",
    file: gen("paired-pareto"),
    columns: genColumns,
    pair: { a: "a", b: "b" },
  },
  {
    name: "heldout-paired",
    label: "held out, paired: log-normal σ = 2.8, 50% tied",
    file: gen("heldout-paired"),
    columns: genColumns,
    pair: { a: "a", b: "b" },
  },
].filter((c) => only === null || only.split(",").includes(c.name));

const METHODS = [
  "cr2",
  "cv3-t",
  "cv3-cr2nu",
  "cv3-nu3",
  "hall-t-linearised",
  "bootstrap-t",
  "mover-logit-cv3",
  "mover-below-nu-4",
  "mover-below-nu-8",
];
/** The switching candidates: MOVER where cr2's ν is below the threshold, else cr2. */
const SWITCH_BELOW = { "mover-below-nu-4": 4, "mover-below-nu-8": 8 };
const results = {};
for (const c of CENSUSES) {
  const started = Date.now();
  const census = differences(c.file, { ...c.columns, ...c.pair });
  const M = census.ids.length;
  const N = sum(census.n);
  const truth = sum(census.s) / N;
  const tied = census.s.filter((s) => s === 0).length / M;
  const cells = [];
  for (const k of KS.filter((k) => k < M)) {
    for (const fpc of [false, true]) {
      const cellStarted = Date.now();
      const tally = Object.fromEntries(
        METHODS.map((m) => [
          m,
          { covered: 0, above: 0, below: 0, width: 0, coveredIf: 0, widthIf: 0 },
        ]),
      );
      let enough = 0;
      for (let i = 0; i < reps; i++) {
        const { sample, analysis, indices } = pairedSample(census, {
          k,
          i,
          fpc,
          level,
          replicates,
        });
        const f = fpc ? 1 - k / M : 1;
        const n = sum(sample.n);
        const estimate = sum(sample.s) / n;
        const cr2 = analysis.micro.intervals.cr2;
        const v3 = cv3Variance(sample) * f;
        const nbar = n / k;
        const linearised = Array.from(
          sample.s,
          (s, d) => estimate + (s - estimate * sample.n[d]) / nbar,
        );
        const intervals = {
          cr2,
          "cv3-t": around(estimate, Math.sqrt(v3), k - 1),
          "cv3-cr2nu": around(estimate, Math.sqrt(v3), cr2.df ?? k - 1),
          "cv3-nu3": around(estimate, Math.sqrt(v3), cv3DegreesOfFreedom(sample)),
          "hall-t-linearised": hallT(linearised, f),
          "bootstrap-t": analysis.micro.intervals["bootstrap-t"],
          "mover-logit-cv3": moverLogitCv3(
            sampleStats(census.systems.a, indices),
            sampleStats(census.systems.b, indices),
            fpc ? M : null,
          ),
        };
        for (const [m, threshold] of Object.entries(SWITCH_BELOW))
          intervals[m] = cr2.df < threshold ? intervals["mover-logit-cv3"] : cr2;
        const differing = differingDocuments(sample) >= FEWEST;
        if (differing) enough++;
        for (const m of METHODS) {
          const interval = intervals[m];
          const t = tally[m];
          const ok = interval && interval.available !== false;
          if (ok && interval.lower <= truth && truth <= interval.upper) {
            t.covered++;
            if (differing) t.coveredIf++;
          } else if (ok && truth > interval.upper) t.above++;
          else if (ok) t.below++;
          if (ok) {
            t.width += interval.upper - interval.lower;
            if (differing) t.widthIf += interval.upper - interval.lower;
          }
        }
      }
      const methods = Object.fromEntries(
        Object.entries(tally).map(([m, t]) => {
          const p = t.covered / reps;
          const pIf = enough > 0 ? t.coveredIf / enough : null;
          return [
            m,
            {
              coverage: p,
              mcSe: Math.sqrt((p * (1 - p)) / reps),
              truthAbove: t.above / reps,
              truthBelow: t.below / reps,
              meanWidth: t.width / reps,
              widthOverCr2: t.width / tally.cr2.width,
              coverageWhenEnoughDiffer: pIf,
              mcSeWhenEnoughDiffer: enough > 0 ? Math.sqrt((pIf * (1 - pIf)) / enough) : null,
              meanWidthWhenEnoughDiffer: enough > 0 ? t.widthIf / enough : null,
            },
          ];
        }),
      );
      cells.push({
        k,
        fpc,
        shareEnoughDiffer: enough / reps,
        samplesEnoughDiffer: enough,
        methods,
      });
      console.error(
        `${c.name} K = ${k} fpc ${fpc}: ${((Date.now() - cellStarted) / 1000).toFixed(1)} s`,
      );
    }
  }
  results[c.name] = { label: c.label, documents: M, results: N, tied, truth, cells };
  console.error(`${c.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
if (only !== null) process.exit(0);
writeFileSync(
  join(here, "paired-micro.json"),
  `${JSON.stringify({ reps, replicates, seed: 1, level, fewestDiffering: FEWEST, results }, null, 1)}\n`,
);

const pct = (x) => (x === null ? "—" : (100 * x).toFixed(1));
const LABELS = {
  cr2: "`cr2` (recommended): CR2 variance, ν Bell–McCaffrey",
  "cv3-t": "cv3 variance, t(K − 1)",
  "cv3-cr2nu": "cv3 variance, cr2's ν",
  "cv3-nu3": "cv3 variance, CV3 Satterthwaite ν₃",
  "hall-t-linearised": "Hall's skewness-corrected t on the linearised ratio",
  "bootstrap-t": `document bootstrap-t of the ratio (B = ${replicates})`,
  "mover-logit-cv3": "MOVER on the two systems' logit-cv3 intervals (Zou & Donner 2008)",
  "mover-below-nu-4": "MOVER where cr2's ν < 4 (few documents carry the difference), else cr2",
  "mover-below-nu-8": "MOVER where cr2's ν < 8, else cr2",
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
          ? `${cell.samplesEnoughDiffer} of ${reps} samples with ≥ ${FEWEST} differing`
          : "K ≥ M";
      }).join(" | ")} |`,
    );
    for (const m of METHODS) {
      rows.push(
        `| ${LABELS[m]} | ${KS.map((k) => {
          const cell = r.cells.find((y) => y.k === k && y.fpc === fpc);
          const x = cell?.methods[m];
          if (!x) return "";
          const cond =
            x.coverageWhenEnoughDiffer === null
              ? "—"
              : coverageText(
                  x.coverageWhenEnoughDiffer,
                  x.mcSeWhenEnoughDiffer,
                  cell.samplesEnoughDiffer,
                );
          return `${coverageText(x.coverage, x.mcSe, reps)} (${x.meanWidth.toPrecision(2)}, ${x.widthOverCr2.toFixed(2)}×); ${cond}`;
        }).join(" | ")} |`,
      );
    }
  }
  return [head, rule, ...rows].join("\n");
};
writeFileSync(
  join(here, "PAIRED-MICRO.md"),
  alignTables(
    `# Paired micro candidates\n\nGenerated by \`node bench/method-guide/pairedMicro.mjs\`; do not edit.\n\nCoverage in % of nominal 95% intervals of the micro difference b − a ± Monte Carlo se (mean width, width ÷ cr2's mean width); then the coverage ± MC se among the samples in which at least ${FEWEST} documents differ (those compare recommends an interval for); where all (or none) covered, the exact one-sided 95% bound in brackets instead of a se of 0. ${reps} repetitions per cell, seed 1, SRS; truth below or above an interval is in paired-micro.json.\n\n${table(false)}\n\n${table(true)}\n`,
  ),
);
console.error("wrote bench/method-guide/paired-micro.json and PAIRED-MICRO.md");
