// Can a sample show that the recommended micro interval (logit-cv3) is about to miss?
//   node bench/method-guide/tailDiagnostic.mjs   (after npm run build; REPS=1000 by default)
//
// For each single-system census of the rule study (studyCensuses.mjs), K = 10, 20 and 50, no
// fpc, and each of the SRS samples withheld.mjs draws (the same seed): whether the recommended
// micro 95% interval holds the census's micro value, and statistics computed from the sample
// alone (the K documents' sizes n_d and rates s_d / n_d, and the analysis ragci gives of them).
//
// Each statistic is scored two ways. Threshold-free: within each census and K, the AUC of the
// statistic for telling the samples that missed from those that covered (0.5: no better than a
// coin). As a warning rule: a direction and a threshold chosen on the censuses the rules were
// chosen on ("trained": censuses.py's, the bundled synthetic census and COVID-QA) — the rule
// whose unwarned samples cover best on the worst trained cell, among the rules that warn on at
// most BUDGET of the samples of the trained cells where logit-cv3 already covers ≥ FINE — and
// then applied unchanged to the held-out censuses (heldout.py's and TAT-QA).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { ensureCensuses } from "./pairedDifferences.mjs";
import { analyseSample, CENSUSES, censusTruth, drawnSample } from "./studyCensuses.mjs";

const here = dirname(fileURLToPath(import.meta.url));

const reps = Number(process.env.REPS ?? 1000);
const KS = [10, 20, 50];
const level = 0.95;
// A cell "covers fine" at ≥ 93% (withheld.mjs's cells span 93.3–99.3% where logit-cv3 holds).
const FINE = 0.93;
// The most a warning may fire on the samples of the trained cells that cover fine.
const BUDGETS = [0.1, 0.25];

ensureCensuses({ heldOut: true });

const sum = (v) => v.reduce((x, y) => x + y, 0);
const mean = (v) => sum(v) / v.length;

/** Pearson correlation; 0 when either side does not vary. */
function correlation(x, y) {
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** Moment skewness g₁; 0 when the values do not vary. */
function skewness(x) {
  const m = mean(x);
  const m2 = mean(x.map((v) => (v - m) ** 2));
  const m3 = mean(x.map((v) => (v - m) ** 3));
  return m2 > 0 ? m3 / m2 ** 1.5 : 0;
}

/**
 * The candidate statistics of one sample: `sample` the K documents' sums, `micro` ragci's micro
 * analysis of them. Each is what a user would see, or could compute, without the census.
 */
const STATISTICS = {
  hill: "Hill estimate of the size tail index α from the largest ⌈K/5⌉ + 1 sizes (low: heavy tail)",
  maxOverMedian: "largest size / median size",
  cvSizes: "coefficient of variation of the sizes",
  logSizeSkew: "skewness of log sizes",
  sizeRateCorr: "Pearson correlation of log size and rate",
  shareLargest: "share of the results in the largest document",
  shareLargestDecile:
    "share of the results in the largest 10% of documents (the power-law-sizes warning's)",
  effectiveShare: "Kish effective number of documents (Σn)² / Σn², over K",
  jackknifeOverCr2: "jackknife (CV3) variance / CR2 variance",
  largestInfluence: "|R − R without the largest document| / CR2 se",
  cr2DfShare: "CR2's Bell–McCaffrey degrees of freedom / (K − 1)",
};

function sampleStatistics(sample, analysis) {
  const n = Array.from(sample.n);
  const s = Array.from(sample.s);
  const K = n.length;
  const N = sum(n);
  const R = sum(s) / N;
  const sorted = [...n].sort((a, b) => b - a);
  const top = Math.ceil(K / 5);
  let logExcess = 0;
  for (let i = 0; i < top; i++) logExcess += Math.log(sorted[i] / sorted[top]);
  const median = K % 2 ? sorted[(K - 1) / 2] : (sorted[K / 2 - 1] + sorted[K / 2]) / 2;
  const sd = Math.sqrt(sum(n.map((v) => (v - N / K) ** 2)) / (K - 1));
  const largest = n.indexOf(sorted[0]);
  const { cr2 } = analysis.micro.intervals;
  const cv3 = analysis.micro.intervals["logit-cv3"];
  const seCr2 = cr2.available ? cr2.se : Number.NaN;
  const sizes = analysis.diagnostics.sizes;
  return {
    hill: logExcess > 0 ? top / logExcess : Number.POSITIVE_INFINITY,
    maxOverMedian: sorted[0] / median,
    cvSizes: sd / (N / K),
    logSizeSkew: skewness(n.map(Math.log)),
    sizeRateCorr: correlation(
      n.map(Math.log),
      s.map((v, d) => v / n[d]),
    ),
    shareLargest: sorted[0] / N,
    shareLargestDecile: sizes.equalSizes ? 0 : sizes.shareLargestDecile,
    effectiveShare: N ** 2 / sum(n.map((v) => v * v)) / K,
    jackknifeOverCr2: cv3?.available ? (cv3.se / seCr2) ** 2 : Number.NaN,
    largestInfluence: Math.abs(R - (sum(s) - s[largest]) / (N - sorted[0])) / seCr2,
    cr2DfShare: cr2.available ? cr2.df / (K - 1) : Number.NaN,
  };
}

/** Mann–Whitney AUC: P(value of a miss > value of a cover), ties ½; null without both. */
function auc(values, covers) {
  const order = values
    .map((_, i) => i)
    .filter((i) => !Number.isNaN(values[i]))
    .sort((a, b) => (values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : 0));
  let rankSum = 0;
  let misses = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    const rank = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) {
      if (!covers[order[t]]) {
        rankSum += rank;
        misses++;
      }
    }
    i = j + 1;
  }
  const hits = order.length - misses;
  if (misses === 0 || hits === 0) return null;
  return (rankSum - (misses * (misses + 1)) / 2) / (misses * hits);
}

/** The share of true entries of `flags` among the indices that satisfy `where` (null: none). */
function shareWhere(flags, where) {
  const idx = flags.map((_, i) => i).filter(where);
  return idx.length ? idx.filter((i) => flags[i]).length / idx.length : null;
}

// ---- the samples -------------------------------------------------------------------------
const started = Date.now();
const cells = [];
for (const c of CENSUSES.filter((c) => !c.paired)) {
  const census = c.stats();
  const M = census.ids.length;
  const truth = censusTruth(census).micro;
  // The census's largest 1% of documents (ties at the cut included): the advice's claim is
  // that the samples that missed had drawn none of them.
  const cut = [...census.n].sort((a, b) => b - a)[Math.ceil(M / 100) - 1];
  const largest = new Set(census.ids.filter((_, d) => census.n[d] >= cut));
  for (const k of KS.filter((k) => k < M)) {
    const values = Object.fromEntries(Object.keys(STATISTICS).map((name) => [name, []]));
    const covers = [];
    const drewLargest = [];
    const methods = {};
    for (let i = 0; i < reps; i++) {
      const sample = drawnSample(census, k, i);
      const analysis = analyseSample(sample, census, { fpc: false, paired: false, level });
      const x = analysis.micro;
      const interval = x.intervals[x.recommended];
      methods[x.recommended] = (methods[x.recommended] ?? 0) + 1;
      covers.push(
        interval?.available === true && interval.lower <= truth && truth <= interval.upper,
      );
      drewLargest.push(sample.ids.some((id) => largest.has(id)));
      const stats = sampleStatistics(sample, analysis);
      for (const name of Object.keys(STATISTICS)) values[name].push(stats[name]);
    }
    const coverage = covers.filter(Boolean).length / reps;
    cells.push({
      census: c.name,
      label: c.label,
      heldOut: c.heldOut === true,
      k,
      methods,
      coverage,
      // Of the misses and of the covers, the share that drew one of the largest 1%.
      // (null when every document ties at the cut: equal sizes have no largest documents).
      missesDrewLargest: largest.size < M ? shareWhere(drewLargest, (i) => !covers[i]) : null,
      coversDrewLargest: largest.size < M ? shareWhere(drewLargest, (i) => covers[i]) : null,
      fine: coverage >= FINE,
      covers,
      values,
    });
  }
  console.error(`${c.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- threshold-free: AUC per cell ---------------------------------------------------------
for (const cell of cells) {
  cell.auc = Object.fromEntries(
    Object.keys(STATISTICS).map((name) => [name, auc(cell.values[name], cell.covers)]),
  );
}

// ---- a rule per statistic, chosen on the trained cells -----------------------------------
// A rule warns on the samples whose statistic lies in [lo, hi] (never on an undefined one).
// Families: one-sided (lo = −∞ or hi = +∞; thresholds on the 1% grid), a band (both ends on the
// 2.5% grid), and a band chosen for each K apart (the budget held at each K).
const ONE_SIDED_GRID = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);
const BAND_GRID = Array.from({ length: 39 }, (_, i) => (i + 1) / 40);

// Each cell's values of each statistic sorted, with the count of covering samples below each.
for (const cell of cells) {
  cell.sorted = Object.fromEntries(
    Object.keys(STATISTICS).map((name) => {
      const order = cell.values[name]
        .map((_, i) => i)
        .filter((i) => !Number.isNaN(cell.values[name][i]))
        .sort((a, b) => cell.values[name][a] - cell.values[name][b] || 0);
      const v = Float64Array.from(order, (i) => cell.values[name][i]);
      const covered = new Uint32Array(order.length + 1);
      order.forEach((i, j) => {
        covered[j + 1] = covered[j] + (cell.covers[i] ? 1 : 0);
      });
      return [name, { v, covered }];
    }),
  );
  cell.misses = cell.covers.filter((x) => !x).length;
}

/** The first index of sorted `v` with v[i] ≥ x (lower) or v[i] > x (upper). */
function bound(v, x, upper) {
  let a = 0;
  let b = v.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (upper ? v[m] <= x : v[m] < x) a = m + 1;
    else b = m;
  }
  return a;
}

/** The samples a rule warns on in one cell, and the coverage among them and among the others. */
function applied(cell, name, rule) {
  const { v, covered } = cell.sorted[name];
  const from = bound(v, rule.lo, false);
  const to = bound(v, rule.hi, true);
  const flagged = Math.max(0, to - from);
  const flaggedCovered = flagged > 0 ? covered[to] - covered[from] : 0;
  const othersCovered = reps - cell.misses - flaggedCovered;
  return {
    share: flagged / reps,
    flagged,
    coverageFlagged: flagged > 0 ? flaggedCovered / flagged : null,
    coverageOthers: flagged < reps ? othersCovered / (reps - flagged) : null,
    missesFlagged: cell.misses > 0 ? (flagged - flaggedCovered) / cell.misses : null,
  };
}

/** What a rule (by K) does over a set of cells: the figures the choice and the held-out check read. */
function summary(group, name, ruleAt) {
  const per = group.map((cell) => ({ cell, r: applied(cell, name, ruleAt(cell.k)) }));
  const fine = per.filter((x) => x.cell.fine);
  const short = per.filter((x) => !x.cell.fine);
  const flaggedShort = sum(short.map((x) => x.r.flagged));
  const missesShort = sum(short.map((x) => x.cell.misses));
  return {
    // The worst coverage among the samples not warned on (a cell all warned on counts as 1).
    worstCoverageOthers: Math.min(...per.map((x) => x.r.coverageOthers ?? 1)),
    worstCoverageNoRule: Math.min(...per.map((x) => x.cell.coverage)),
    shareFlaggedFine: fine.length ? sum(fine.map((x) => x.r.flagged)) / (fine.length * reps) : null,
    shareFlaggedShort: short.length ? flaggedShort / (short.length * reps) : null,
    missesFlaggedShort:
      missesShort > 0
        ? sum(short.map((x) => x.r.flagged * (1 - (x.r.coverageFlagged ?? 0)))) / missesShort
        : null,
    coverageFlaggedShort:
      flaggedShort > 0
        ? sum(short.map((x) => x.r.flagged * (x.r.coverageFlagged ?? 0))) / flaggedShort
        : null,
  };
}

/** Grid quantiles of a statistic over the given cells' samples (distinct values). */
function gridValues(group, name, grid) {
  const pooled = group
    .flatMap((c) => c.values[name])
    .filter((v) => !Number.isNaN(v))
    .sort((a, b) => a - b);
  return [...new Set(grid.map((p) => pooled[Math.floor(p * (pooled.length - 1))]))];
}

function candidates(group, name, family) {
  const out = [];
  if (family === "one-sided") {
    for (const x of gridValues(group, name, ONE_SIDED_GRID)) {
      out.push({ lo: -Infinity, hi: x }, { lo: x, hi: Infinity });
    }
  } else {
    const xs = [-Infinity, ...gridValues(group, name, BAND_GRID), Infinity];
    for (let i = 0; i < xs.length; i++) {
      for (let j = i + 1; j < xs.length; j++) {
        if (i > 0 || j < xs.length - 1) out.push({ lo: xs[i], hi: xs[j] });
      }
    }
  }
  return out;
}

/** The candidate within budget whose unwarned samples cover best in the worst cell of `group`. */
function choose(group, name, family, budget) {
  let best = null;
  for (const rule of candidates(group, name, family)) {
    const s = summary(group, name, () => rule);
    if (s.shareFlaggedFine > budget) continue;
    const gain = best === null ? 1 : s.worstCoverageOthers - best.s.worstCoverageOthers;
    if (gain > 1e-12 || (gain > -1e-12 && s.shareFlaggedFine < best.s.shareFlaggedFine)) {
      best = { rule, s };
    }
  }
  return best.rule;
}

const FAMILIES = ["one-sided", "band", "band per K"];
const trained = cells.filter((c) => !c.heldOut);
const heldOut = cells.filter((c) => c.heldOut);
const rules = [];
for (const family of FAMILIES) {
  for (const budget of BUDGETS) {
    for (const name of Object.keys(STATISTICS)) {
      const shared = family === "band per K" ? null : choose(trained, name, family, budget);
      const byK = Object.fromEntries(
        KS.map((k) => [
          k,
          shared ??
            choose(
              trained.filter((c) => c.k === k),
              name,
              "band",
              budget,
            ),
        ]),
      );
      const ruleAt = (k) => byK[k];
      rules.push({
        family,
        budget,
        statistic: name,
        rule: Object.fromEntries(KS.map((k) => [k, { lo: byK[k].lo, hi: byK[k].hi }])),
        trained: summary(trained, name, ruleAt),
        heldOut: summary(heldOut, name, ruleAt),
        cells: cells.map((cell) => ({
          census: cell.census,
          k: cell.k,
          ...applied(cell, name, ruleAt(cell.k)),
        })),
      });
    }
  }
}
const seconds = (Date.now() - started) / 1000;
console.error(`${seconds.toFixed(1)} s`);

// ±∞ ends are written as null in the JSON (lo null: no lower end; hi null: no upper end).
const finite = (x) => (Number.isFinite(x) ? x : null);
writeFileSync(
  join(here, "tail-diagnostic.json"),
  `${JSON.stringify(
    {
      reps,
      seed: 1,
      level,
      fine: FINE,
      budgets: BUDGETS,
      statistics: STATISTICS,
      cells: cells.map(({ covers, values, sorted, ...cell }) => cell),
      rules: rules.map((r) => ({
        ...r,
        rule: Object.fromEntries(
          Object.entries(r.rule).map(([k, x]) => [k, { lo: finite(x.lo), hi: finite(x.hi) }]),
        ),
      })),
    },
    null,
    1,
  )}\n`,
);

// ---- the report ---------------------------------------------------------------------------
const pct = (x) => (x === null || x === undefined ? "—" : (100 * x).toFixed(1));
const num = (x) => (x === null ? "—" : x.toFixed(2));
const short3 = (x) => String(Number(x.toPrecision(3)));
const names = Object.keys(STATISTICS);
const cellName = (cell) => `${cell.heldOut ? "*" : ""}${cell.label}, K = ${cell.k}`;
const aucTable = [
  `| census, K (* held out) | coverage | misses | drew one of the largest 1%: misses / covers | ${names.map((n) => `\`${n}\``).join(" | ")} |`,
  `|---|---:|---:|---:|${names.map(() => "---:").join("|")}|`,
  ...cells.map(
    (cell) =>
      `| ${cellName(cell)} | ${pct(cell.coverage)} | ${cell.misses} | ${cell.missesDrewLargest === null ? "—" : `${pct(cell.missesDrewLargest)}% / ${pct(cell.coversDrewLargest)}%`} | ${names.map((n) => num(cell.auc[n])).join(" | ")} |`,
  ),
].join("\n");
const range = ({ lo, hi }) =>
  lo === -Infinity
    ? `≤ ${short3(hi)}`
    : hi === Infinity
      ? `≥ ${short3(lo)}`
      : `in [${short3(lo)}, ${short3(hi)}]`;
const ruleText = (r) => {
  const texts = KS.map((k) => range(r.rule[k]));
  return texts.every((x) => x === texts[0])
    ? `\`${r.statistic}\` ${texts[0]}`
    : `\`${r.statistic}\` ${KS.map((k, i) => `K = ${k}: ${texts[i]}`).join("; ")}`;
};
const figures = (s) =>
  `${pct(s.worstCoverageOthers)} (${pct(s.worstCoverageNoRule)}) | ${pct(s.shareFlaggedFine)}% | ${pct(s.shareFlaggedShort)}% · ${pct(s.coverageFlaggedShort)} · ${pct(s.missesFlaggedShort)}%`;
const FIGURE_HEAD =
  "trained: worst coverage unwarned (no rule) | trained, fine cells: warned | trained, short cells: warned · their coverage · misses warned | held out: worst coverage unwarned (no rule) | held out, fine cells: warned | held out, short cells: warned · their coverage · misses warned";
const ruleTable = (family, budget) =>
  [
    `| ${family}, at most ${pct(budget)}% warned on trained fine cells: warn when | ${FIGURE_HEAD} |`,
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rules
      .filter((r) => r.family === family && r.budget === budget)
      .map((r) => `| ${ruleText(r)} | ${figures(r.trained)} | ${figures(r.heldOut)} |`),
  ].join("\n");
const best = (family, budget) =>
  rules
    .filter((r) => r.family === family && r.budget === budget)
    .reduce((a, b) =>
      b.trained.worstCoverageOthers > a.trained.worstCoverageOthers + 1e-12 ? b : a,
    );
const winners = FAMILIES.flatMap((f) =>
  BUDGETS.map((b) => ({ family: f, budget: b, r: best(f, b) })),
);
const headline = [
  `| family, budget | best rule on the trained censuses | ${FIGURE_HEAD} |`,
  "|---|---|---:|---:|---:|---:|---:|---:|",
  ...winners.map(
    (w) =>
      `| ${w.family}, ${pct(w.budget)}% | ${ruleText(w.r)} | ${figures(w.r.trained)} | ${figures(w.r.heldOut)} |`,
  ),
].join("\n");
const cellTable = [
  `| census, K (* held out) | coverage | ${winners.map((w) => `${w.family}, ${pct(w.budget)}%: \`${w.r.statistic}\``).join(" | ")} |`,
  `|---|---:|${winners.map(() => "---:").join("|")}|`,
  ...cells.map((cell) => {
    const xs = winners.map((w) =>
      w.r.cells.find((y) => y.census === cell.census && y.k === cell.k),
    );
    return `| ${cellName(cell)} | ${pct(cell.coverage)} | ${xs.map((x) => `${pct(x.share)}% · ${pct(x.coverageFlagged)} · ${pct(x.coverageOthers)}`).join(" | ")} |`;
  }),
].join("\n");

// The best rule of all, by the trained worst cell, said in a sentence with its held-out figures.
const top = winners.reduce((a, b) =>
  b.r.trained.worstCoverageOthers > a.r.trained.worstCoverageOthers + 1e-12 ? b : a,
);
const fineSpread = (group) => {
  const xs = top.r.cells
    .filter((x) => group.some((c) => c.census === x.census && c.k === x.k && c.fine))
    .map((x) => x.share);
  return `${pct(Math.min(...xs))}–${pct(Math.max(...xs))}%`;
};
const inShort = `In short: the rule that does best on the trained censuses (${top.family}, ${ruleText(top.r)}) lifts the coverage of the samples it does not warn on in the worst trained cell from ${pct(top.r.trained.worstCoverageNoRule)}% to ${pct(top.r.trained.worstCoverageOthers)}%, warning on ${pct(top.r.trained.shareFlaggedFine)}% of the samples of the trained cells where logit-cv3 covers fine (${fineSpread(trained)} per cell); on the held-out censuses it lifts the worst cell from ${pct(top.r.heldOut.worstCoverageNoRule)}% to ${pct(top.r.heldOut.worstCoverageOthers)}%, warning on ${pct(top.r.heldOut.shareFlaggedFine)}% of the samples of the fine held-out cells (${fineSpread(heldOut)} per cell).`;

const text = `# Does a sample show that logit-cv3 will miss?

Generated by \`node bench/method-guide/tailDiagnostic.mjs\`; do not edit.

The recommended micro 95% interval (logit-cv3) from the sample alone, no fpc, on ${reps} SRS samples per census and K (seed 1: withheld.mjs's samples), scored against the census's micro value. Single-system censuses only (the paired ones have no micro sizes of their own). Each statistic is computed from the sample alone:

${names.map((n) => `- \`${n}\`: ${STATISTICS[n]}`).join("\n")}

## Within a census: does the statistic tell the misses from the covers?

The share of the misses, and of the covers, that drew at least one of the census's largest 1% of documents (the advice's account of the misses); then the AUC of each statistic for the samples that missed against those that covered (above 0.5: the misses have the larger values; below 0.5: the smaller; 0.5: no separation; —: no misses, or, for the share, every document at or above the census's top-1% cut). A "*" marks the held-out censuses.

${aucTable}

## As a warning: a rule chosen on the trained censuses, applied unchanged to the held-out ones

Trained: ${[...new Set(trained.map((c) => c.label))].join(", ")}. Held out: ${[...new Set(heldOut.map((c) => c.label))].join(", ")}. A cell (census and K) is "fine" when logit-cv3 covers ≥ ${pct(FINE)}% of its samples, "short" otherwise. For each statistic and family of rules — one-sided (warn at or beyond a threshold on the 1st–99th percentiles of its values over all trained samples), band (warn between two of the 2.5%-steps percentiles, or beyond one), band per K (a band chosen at each K apart) — the rule whose unwarned samples cover best in the worst trained cell, among the rules that warn on at most the budget of the samples of the trained fine cells (ties: the one that warns least there). "Misses warned": the share of the short cells' misses the rule warns on.

The best statistic of each family and budget, by the trained worst cell:

${headline}

${inShort}

Per cell, for those rules: the share of samples warned · logit-cv3's coverage among them · among the others.

${cellTable}

Every statistic:

${FAMILIES.flatMap((f) => BUDGETS.map((b) => ruleTable(f, b))).join("\n\n")}
`;
writeFileSync(join(here, "TAIL-DIAGNOSTIC.md"), alignTables(text));
console.error("wrote bench/method-guide/tail-diagnostic.json and TAIL-DIAGNOSTIC.md");
