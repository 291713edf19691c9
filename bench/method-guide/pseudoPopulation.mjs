// Can a sample stand in for its census in a coverage study?
//   node bench/method-guide/pseudoPopulation.mjs   (after npm run build; about 30 min of CPU)
//   ONLY=name1,name2 and FPC=no or yes rerun those rows; --report rewrites the Markdown alone.
//
// A user with only a sample can give it to `ragci simulate` as if it were the census (K < M:
// K = M is refused). The study then scores every interval on samples of the sample, against
// the sample's own value, and recommends one. This script measures what such a study predicts
// against the truth: for each census (one system's, and a pair's differences, studied as
// simulate studies a pair) and sample size n, S samples of n documents (SRS, seed 2,
// stream i: apart from the rule study's seed 1); on each, the study simulate runs at K = 20
// (REPS repetitions, B = 999, seed 1, as simulate's defaults; without the fpc, simulate's
// default, and with --fpc); and the same study on the census itself (TRUTH_REPS repetitions),
// whose coverages are the truth at K = 20.
// Reported: the default intervals' (micro logit-cv3, macro logit) coverage as the sample's study
// predicts it and as it is; the interval the sample's study recommends, and its coverage on the
// census. Writes pseudo-population.json and PSEUDO-POPULATION.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { writeGuideSection } from "./guideSection.mjs";
import { ensureCensuses } from "./pairedDifferences.mjs";
import { CENSUSES } from "./studyCensuses.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const core = (file) => import(join(root, "dist/core/simulation", file));
const { runRepetitions } = await core("coverageStudy.js");
const { summarizeStudy } = await core("studySummary.js");
const { recommendFromStudy } = await core("recommendFromStudy.js");
const { sampleIndices, sampleStats } = await core("sampleDocuments.js");
const { allRatesEqual } = await import(join(root, "dist/core/diagnostics/rateDistribution.js"));

const reportOnly = process.argv.includes("--report");
const out = join(here, "pseudo-population.json");
const file = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : null;
// --report rewrites the Markdown from the file, with the file's settings.
const setting = (name, variable, fallback) =>
  reportOnly && file ? file[name] : Number(process.env[variable] ?? fallback);
const S = setting("samples", "SAMPLES", 200);
const REPS = setting("reps", "REPS", 1000);
const TRUTH_REPS = setting("truthReps", "TRUTH_REPS", 2000);
const B = 999;
const K = 20;
const SIZES = [50, 100];
const only = process.env.ONLY?.split(",");
// Without the fpc, as simulate runs by default; with it (--fpc), as a careful user would.
const FPCS = (process.env.FPC ?? "no,yes").split(",").map((x) => x === "yes");
const FPCS_REPORTED = [false, true];

ensureCensuses({ heldOut: true });

const study = (census, reps, fpc, differences) => {
  const options = {
    ...{ documents: K, repetitions: reps, replicates: B, seed: 1, level: 0.95 },
    ...{ fpc, differences },
  };
  return summarizeStudy(census, options, runRepetitions(census, options, 0, reps));
};
// The robust defaults simulate names: one system's, and compare's for a pair's differences.
const DEFAULTS = {
  single: { micro: "logit-cv3", macro: "logit" },
  paired: { micro: "cr2", macro: "t-differing" },
};

/** The settings, then one row per line (a row's samples are short arrays, kept on its line). */
const writeResults = () =>
  writeFileSync(
    out,
    `{"samples": ${S}, "reps": ${REPS}, "truthReps": ${TRUTH_REPS}, "replicates": ${B}, "k": ${K}, "results": [\n${results.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`,
  );

const rerun = (r) => !reportOnly && (!only || only.includes(r.census)) && FPCS.includes(r.fpc);
const results = (file?.results ?? []).filter((r) => !rerun(r));
// Rows kept from the file must have been run with these settings, or the header would lie.
if (
  results.length > 0 &&
  (file.samples !== S || file.reps !== REPS || file.truthReps !== TRUTH_REPS)
)
  throw new Error(
    `pseudo-population.json was run with ${file.samples} samples, ${file.reps} and ${file.truthReps} repetitions: run every census with those, or all again`,
  );
for (const c of CENSUSES) {
  if (reportOnly || (only && !only.includes(c.name))) continue;
  const paired = c.paired === true;
  const DEFAULT = DEFAULTS[paired ? "paired" : "single"];
  const census = c.stats();
  const M = census.ids.length;
  for (const fpc of FPCS) {
    const started = Date.now();
    // The truth: the same study on the census, its intervals with the census's own fpc if any.
    const truth = study(census, TRUTH_REPS, fpc, paired);
    for (const n of SIZES.filter((n) => n < M)) {
      const per = { micro: [], macro: [] };
      for (let i = 0; i < S; i++) {
        const sample = sampleStats(census, sampleIndices(n, M, 2, i));
        if (allRatesEqual(sample)) {
          // simulate refuses a census whose documents all have one rate (for a pair, one mean
          // difference): no study to score.
          per.micro.push(null);
          per.macro.push(null);
          continue;
        }
        const s = study(sample, REPS, fpc, paired);
        for (const e of ["micro", "macro"]) {
          const pick = recommendFromStudy(s, e);
          // [the default's coverage in the sample's study, its pick, the pick's coverage there]
          per[e].push([
            s.methods[`${e}/${DEFAULT[e]}`].coverage,
            pick?.method ?? null,
            pick?.coverage ?? null,
          ]);
        }
      }
      for (const e of ["micro", "macro"]) {
        results.push({
          census: c.name,
          label: c.label,
          heldOut: c.heldOut === true,
          paired,
          documents: M,
          n,
          fpc,
          estimand: e,
          defaultMethod: DEFAULT[e],
          defaultTrue: truth.methods[`${e}/${DEFAULT[e]}`].coverage,
          trueCoverage: Object.fromEntries(
            Object.entries(truth.methods)
              .filter(([key]) => key.startsWith(`${e}/`))
              .map(([key, v]) => [key.split("/")[1], v.coverage]),
          ),
          samples: per[e],
        });
      }
    }
    console.error(
      `${c.name}${fpc ? ", fpc" : ""}: ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    writeResults();
  }
}
results.sort(
  (a, b) =>
    Number(a.paired) - Number(b.paired) ||
    CENSUSES.findIndex((c) => c.name === a.census) -
      CENSUSES.findIndex((c) => c.name === b.census) ||
    Number(a.fpc) - Number(b.fpc) ||
    a.n - b.n ||
    Number(a.estimand === "macro") - Number(b.estimand === "macro"),
);
// Each census's rows were written as they finished; the file ends in the tables' order.
if (!reportOnly) writeResults();

const pct = (x) => (100 * x).toFixed(1);
const quantile = (sorted, p) => sorted[Math.floor(p * (sorted.length - 1))];
/** How often each value occurs, as a Map. */
function counts(values) {
  const tally = new Map();
  for (const v of values) tally.set(v, (tally.get(v) ?? 0) + 1);
  return tally;
}
/** One row's figures, from the samples whose study could run. */
function figures(r) {
  const studied = r.samples
    .filter((x) => x !== null)
    .map(([defaultPredicted, pick, pickPredicted]) => ({
      defaultPredicted,
      pick,
      pickPredicted,
      pickTrue: r.trueCoverage[pick],
    }));
  const predicted = studied.map((x) => x.defaultPredicted).sort((a, b) => a - b);
  const overstated = studied.map((x) => x.pickPredicted - x.pickTrue).sort((a, b) => a - b);
  return {
    studied: studied.length,
    unstudied: r.samples.length - studied.length,
    predicted: [0.1, 0.5, 0.9].map((p) => quantile(predicted, p)),
    defaultPicked: studied.filter((x) => x.pick === r.defaultMethod).length / studied.length,
    pickShort: studied.filter((x) => x.pickTrue < 0.92).length / studied.length,
    pickShortTrueMedian: quantile(
      studied
        .filter((x) => x.pickTrue < 0.92)
        .map((x) => x.pickTrue)
        .sort((a, b) => a - b),
      0.5,
    ),
    overstated: quantile(overstated, 0.5),
    picks: [...counts(studied.map((x) => x.pick))].sort((a, b) => b[1] - a[1]),
  };
}

const rows = results.map((r) => ({ ...r, f: figures(r) }));
const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(100 * x).toFixed(1)}`;
const table = (paired, estimand, fpc) => [
  `| ${paired ? "paired " : ""}${estimand}${fpc ? ", with the fpc" : ", no fpc"}: census (* held out), sample n | ${DEFAULTS[paired ? "paired" : "single"][estimand]} on the census | as the sample's study predicts it: median (10–90%) | the sample's study recommends (share of samples) | its pick covers < 92% on the census (median there) | the pick's coverage, predicted − true: median |`,
  "| --- | ---: | ---: | --- | ---: | ---: |",
  ...rows
    .filter((r) => r.paired === paired && r.estimand === estimand && r.fpc === fpc)
    .map((r) => {
      const f = r.f;
      const picks = f.picks
        .slice(0, 3)
        .map(([m, count]) => `${m} ${pct(count / f.studied)}%`)
        .join(", ");
      const unstudied =
        f.unstudied > 0
          ? ` (${f.unstudied} ${f.unstudied === 1 ? "sample" : "samples"} not studied: every document the same ${r.paired ? "mean difference" : "rate"})`
          : "";
      return `| ${r.heldOut ? "*" : ""}${r.label}, n = ${r.n} of ${r.documents}${unstudied} | ${pct(r.defaultTrue)} | ${pct(f.predicted[1])} (${pct(f.predicted[0])}–${pct(f.predicted[2])}) | ${picks} | ${pct(f.pickShort)}%${f.pickShort > 0 ? ` (${pct(f.pickShortTrueMedian)})` : ""} | ${signed(f.overstated)} |`;
    }),
];

/** The summary of one setting (fpc or not): where the default held, how often the pick did not. */
function settingSummary(paired, fpc, opening) {
  const own = rows.filter((r) => r.paired === paired && r.fpc === fpc);
  const held = own.filter((r) => r.defaultTrue >= 0.92);
  const bySize = SIZES.map((n) => {
    const at = held.filter((r) => r.n === n);
    if (at.length === 0) return `no row at n = ${n}`;
    const worst = at.reduce((a, b) => (b.f.pickShort > a.f.pickShort ? b : a));
    return `${pct(worst.f.pickShort)}% of the samples of n = ${n} (${worst.estimand} on ${worst.label})`;
  });
  const errors = own.map((r) => r.f.predicted[1] - r.defaultTrue);
  return `${opening}, in ${held.filter((r) => r.f.pickShort > 0).length} of the ${held.length} rows where the default itself covers ≥ 92% on the census, the sample's study picked, in some samples, an interval that covers less than 92% there: up to ${bySize.join(" and ")}. It put the default's coverage ${signed(Math.min(...errors))} to ${signed(Math.max(...errors))} points from its coverage on the census (medians per row).`;
}
/** Both settings of one kind of census: "For …, without the fpc …. With `--fpc`, …". */
const groupSummary = (paired, lead) =>
  `${settingSummary(paired, false, `${lead}, without the fpc (simulate's default)`)} ${settingSummary(paired, true, "With `--fpc`")}`;
const censusCount = (paired) =>
  new Set(rows.filter((r) => r.paired === paired).map((r) => r.census)).size;
const summary = `A sample given to \`ragci simulate\` as its census (${S} samples of n = ${SIZES.join(" or ")} documents from each of ${censusCount(false)} single-system and ${censusCount(true)} paired censuses, K = ${K}) is no reliable guide to the population it came from. ${groupSummary(false, "For one system")} ${groupSummary(true, "For paired differences (the defaults micro cr2, macro t-differing)")} On the power-law census (α = 1.1), where the default covers ${pct(rows.find((r) => r.census === "pareto" && r.estimand === "micro" && !r.fpc).defaultTrue)}%, the samples' studies put it at ${pct(rows.find((r) => r.census === "pareto" && r.estimand === "micro" && !r.fpc && r.n === SIZES[0]).f.predicted[1])}% (median, n = ${SIZES[0]}).`;

writeFileSync(
  join(here, "PSEUDO-POPULATION.md"),
  alignTables(
    [
      "# A sample given as its own census",
      "",
      "Generated by `node bench/method-guide/pseudoPopulation.mjs`; do not edit.",
      "",
      `For each census (one system, and a pair's differences as compare pairs them) and sample size n: ${S} SRS samples of n documents (seed 2, stream i); on each, the coverage study \`ragci simulate\` runs with the sample as the census at K = ${K} (${REPS} repetitions, B = ${B}, seed 1; without the fpc, simulate's default, and with \`--fpc\`, which then uses M = n) and the interval it recommends; on the census itself, the same study with ${TRUTH_REPS} repetitions (with the fpc: the census's M), whose coverages are the truth at K = ${K} (Monte Carlo se about 0.5 points near 95%). Shown: the default interval's coverage on the census and as the samples' studies predict it; what those studies recommend; how often their pick covers less than 92% on the census (and the median of its coverage there over those samples); how much the study overstates its pick's coverage (predicted − true, in points).`,
      "",
      ...[false, true].flatMap((paired) =>
        FPCS_REPORTED.flatMap((fpc) => [
          table(paired, "micro", fpc).join("\n"),
          "",
          table(paired, "macro", fpc).join("\n"),
          "",
        ]),
      ),
      `In short: ${summary}`,
      "",
    ].join("\n"),
  ),
);
writeGuideSection(
  "pseudo-population",
  `**What it found.** ${summary} (\`bench/method-guide/PSEUDO-POPULATION.md\`, \`node bench/method-guide/pseudoPopulation.mjs\`).`,
);
console.error(
  `wrote ${reportOnly ? "" : "bench/method-guide/pseudo-population.json, "}bench/method-guide/PSEUDO-POPULATION.md and the guide's section`,
);
