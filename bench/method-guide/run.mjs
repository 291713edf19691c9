// The method guide's coverage studies (docs/choosing-an-interval.md): `ragci simulate` on
// the bundled synthetic census, on censuses with heavier (and with even) size tails, on
// COVID-QA (hit@5 and RR of BM25), and on TAT-QA (the same, held out: added afterwards), at K = 5, 10, 20, 50, without the fpc (results.json) and
// with it (results-fpc.json: each repetition's intervals use M, as with --population or a
// census). Writes RESULTS.md (every table) and docs/choosing-an-interval.md's tables between the
// method-guide markers. Nothing here is typed by hand: re-run with
// `node bench/method-guide/run.mjs` (after `npm run build`); REPS and B set the cost.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { writeGuideSection } from "./guideSection.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const cli = join(root, "dist/bundle/ragci.js");
const reps = Number(process.env.REPS ?? 2000);
const replicates = Number(process.env.B ?? 999);
const ks = "5,10,20,50";

if (!existsSync(join(here, "censuses/heavy.csv")))
  execFileSync("python3", [join(here, "censuses.py"), join(here, "censuses")], {
    stdio: "inherit",
  });

/** A per-document census (doc_id, n, s, ss), and BM25's metric of a per-query retrieval file. */
const aggregated = (name, label, file) => ({ name, label, args: [file, "--aggregated"] });
const bm25 = (name, label, file, metric) => ({
  name,
  label,
  args: [file, "--metric", metric, "--system", "system=bm25"],
});
const generated = (name) => `bench/method-guide/censuses/${name}.csv`;
const COVID = "examples/covidqa-retrieval.csv";
// Real, added after the recommendations were chosen (tatqa.py): held out.
const TATQA = "bench/method-guide/censuses/tatqa-retrieval.csv";
const CENSUSES = [
  aggregated("synthetic", "synthetic census (bundled)", "examples/synthetic-census.csv"),
  aggregated("even", "even sizes", generated("even")),
  aggregated("heavy", "heavy tail", generated("heavy")),
  aggregated("heavier", "heavier tail", generated("heavier")),
  aggregated("pareto", "power-law tail", generated("pareto")),
  bm25("covidqa-hit5", "COVID-QA hit@5", COVID, "hit5"),
  bm25("covidqa-rr", "COVID-QA RR", COVID, "rr"),
  bm25("tatqa-hit5", "TAT-QA hit@5 (held out)", TATQA, "hit5"),
  bm25("tatqa-rr", "TAT-QA RR (held out)", TATQA, "rr"),
];

function study(c, fpc) {
  const started = Date.now();
  const out = execFileSync(
    process.execPath,
    [
      cli,
      "simulate",
      ...c.args,
      "--k",
      ks,
      "--reps",
      String(reps),
      "--replicates",
      String(replicates),
      "--seed",
      "1",
      ...(fpc ? ["--fpc"] : []),
      "--json",
    ],
    // From the repository's root, with its relative paths: the JSON names the files as a user would.
    { cwd: root, maxBuffer: 1 << 26 },
  );
  console.error(`${c.name}${fpc ? " (fpc)" : ""}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return JSON.parse(out.toString());
}
const results = {};
const withFpc = {};
for (const c of CENSUSES) {
  results[c.name] = study(c, false);
  withFpc[c.name] = study(c, true);
}
writeFileSync(join(here, "results.json"), `${JSON.stringify(results, null, 1)}\n`);
writeFileSync(join(here, "results-fpc.json"), `${JSON.stringify(withFpc, null, 1)}\n`);

const pct = (x) => `${(100 * x).toFixed(1)}`;
const cell = (m) =>
  m ? (m.meanWidth === null ? "—" : `${pct(m.coverage)} (${m.meanWidth.toPrecision(2)})`) : "";
const census = (c) => results[c.name].census;
const tail = (c) => {
  const s = census(c);
  return `M = ${s.documents}, N = ${s.results}`;
};

function atK(estimand, k, methods) {
  const head = `| ${estimand} at K = ${k} | ${CENSUSES.map((c) => c.label).join(" | ")} |`;
  const rule = `|---|${CENSUSES.map(() => "---:").join("|")}|`;
  const rows = methods.map((m) => {
    const cells = CENSUSES.map((c) =>
      cell(results[c.name].studies.find((s) => s.k === k)?.methods[`${estimand}/${m}`]),
    );
    return `| \`${m}\` | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
}

const MICRO = [
  "logit-cv3",
  "cr2",
  "logit",
  "bootstrap-t",
  "bootstrap-percentile",
  "cr1",
  "wald-effective-n",
  "wald-iid",
];
const MACRO = ["logit", "t", "bootstrap-t", "bootstrap-percentile", "wald-effective-n", "wald-iid"];

const KS = [5, 10, 20, 50];
const withSe = (m) => (m ? `${pct(m.coverage)} ± ${pct(m.mcse)}` : "");
function bySize(estimand, method) {
  const head = `| \`${estimand}/${method}\` | ${KS.map((k) => `K = ${k}`).join(" | ")} | ${KS.map((k) => `K = ${k}, fpc`).join(" | ")} |`;
  const rule = `|---|${[...KS, ...KS].map(() => "---:").join("|")}|`;
  const rows = CENSUSES.map((c) => {
    const at = (set, k) =>
      set[c.name].studies.find((s) => s.k === k)?.methods[`${estimand}/${method}`];
    return `| ${c.label} | ${KS.map((k) => withSe(at(results, k))).join(" | ")} | ${KS.map((k) => withSe(at(withFpc, k))).join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
}

const guide = [
  `Coverage in % of nominal 95% intervals (mean width in parentheses); ${reps} repetitions per cell (Monte-Carlo se about 0.5 points near 95%), B = ${replicates}, seed 1, SRS without fpc. Censuses: ${CENSUSES.map((c) => `${c.label} (${tail(c)})`).join("; ")}.`,
  "",
  atK("micro", 20, MICRO),
  "",
  atK("macro", 20, MACRO),
  "",
  atK("micro", 5, MICRO.slice(0, 4)),
  "",
  atK("macro", 5, MACRO.slice(0, 3)),
  "",
  "Coverage in % ± Monte Carlo se at every K, without and with the fpc (M = 1,300 for the generated censuses, 98 for COVID-QA, so K = 50 samples half of COVID-QA, and 555 for TAT-QA):",
  "",
  bySize("micro", "logit-cv3"),
  "",
  bySize("micro", "cr2"),
  "",
  bySize("macro", "logit"),
  "",
  bySize("macro", "t"),
].join("\n");

const all = CENSUSES.map((c) => {
  const r = results[c.name];
  const lines = [
    `## ${c.label}`,
    "",
    `${tail(c)}; census micro ${r.truth.micro.toFixed(4)}, macro ${r.truth.macro.toFixed(4)}.`,
    "",
  ];
  for (const estimand of ["micro", "macro"]) {
    const keys = Object.keys(r.studies[0].methods).filter((k) => k.startsWith(`${estimand}/`));
    lines.push(
      `| ${estimand} | ${r.studies.map((s) => `K = ${s.k}`).join(" | ")} |`,
      `|---|${r.studies.map(() => "---:").join("|")}|`,
    );
    for (const key of keys)
      lines.push(
        `| \`${key.split("/")[1]}\` | ${r.studies.map((s) => cell(s.methods[key])).join(" | ")} |`,
      );
    lines.push(
      `| recommended by the study | ${r.studies.map((s) => s.recommended[estimand]?.method ?? "—").join(" | ")} |`,
      "",
    );
  }
  return lines.join("\n");
}).join("\n");
writeFileSync(
  join(here, "RESULTS.md"),
  alignTables(
    `# Method-guide coverage studies\n\nGenerated by \`node bench/method-guide/run.mjs\`; do not edit.\n\n${guide}\n\n${all}`,
  ),
);

writeGuideSection("method-guide", guide);
console.error(
  "wrote bench/method-guide/results.json, RESULTS.md and docs/choosing-an-interval.md's method-guide tables",
);
