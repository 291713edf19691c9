import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { alignTables } from "./alignTables.mjs";
import { coverageText } from "./coverageText.mjs";
import { writeGuideSection } from "./guideSection.mjs";
import { ensureCensuses } from "./pairedDifferences.mjs";
import { analysedSamples, CENSUSES, censusTruth } from "./studyCensuses.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { POWER_LAW_DECILE_SHARE } = await import(join(root, "dist/core/recommendationWithheld.js"));

const reps = Number(process.env.REPS ?? 1000);
const KS = [10, 20, 50];
const level = 0.95;

ensureCensuses({ heldOut: true });

const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9, 1.01];
const sum = (v) => v.reduce((x, y) => x + y, 0);
const results = {};
for (const c of CENSUSES) {
  const started = Date.now();
  const census = c.stats();
  const M = census.ids.length;
  const N = sum(census.n);
  const truth = censusTruth(census);
  const cells = [];
  for (const k of KS.filter((k) => k < M)) {
    for (const fpc of [false, true]) {
      const t = Object.fromEntries(
        ["micro", "macro"].map((e) => [
          e,
          { recommended: 0, covered: 0, withheldCovered: 0, method: {} },
        ]),
      );
      const byThreshold = THRESHOLDS.map(() => ({ kept: 0, covered: 0 }));
      // Micro samples at or above POWER_LAW_DECILE_SHARE (the power-law-sizes warning).
      const concentrated = { samples: 0, covered: 0 };
      for (const a of analysedSamples(census, { k, fpc, paired: c.paired, reps, level })) {
        for (const e of ["micro", "macro"]) {
          const x = a[e];
          const interval = x.intervals[x.recommended];
          const covers =
            interval?.available === true &&
            interval.lower <= truth[e] &&
            truth[e] <= interval.upper;
          const tally = t[e];
          tally.method[x.recommended] = (tally.method[x.recommended] ?? 0) + 1;
          if (x.recommendationWithheld) {
            if (covers) tally.withheldCovered++;
          } else {
            tally.recommended++;
            if (covers) tally.covered++;
          }
          const share = a.diagnostics.sizes.equalSizes ? 0 : a.diagnostics.sizes.shareLargestDecile;
          if (e === "micro" && !c.paired && share >= POWER_LAW_DECILE_SHARE) {
            concentrated.samples++;
            if (covers) concentrated.covered++;
          }
          if (e === "micro" && !fpc && !c.paired) {
            THRESHOLDS.forEach((th, j) => {
              if (share < th) {
                byThreshold[j].kept++;
                if (covers) byThreshold[j].covered++;
              }
            });
          }
        }
      }
      const summary = (x) => {
        const p = x.recommended > 0 ? x.covered / x.recommended : null;
        const withheld = reps - x.recommended;
        return {
          methods: x.method,
          shareRecommended: x.recommended / reps,
          samplesRecommended: x.recommended,
          coverageWhenRecommended: p,
          mcSe: p === null ? null : Math.sqrt((p * (1 - p)) / x.recommended),
          coverageWhenWithheld: withheld > 0 ? x.withheldCovered / withheld : null,
          coverageUnconditional: (x.covered + x.withheldCovered) / reps,
        };
      };
      cells.push({
        k,
        fpc,
        micro: {
          ...summary(t.micro),
          ...(c.paired
            ? {}
            : {
                concentrated: {
                  share: concentrated.samples / reps,
                  coverage:
                    concentrated.samples > 0 ? concentrated.covered / concentrated.samples : null,
                  coverageOthers:
                    concentrated.samples < reps
                      ? (t.micro.covered + t.micro.withheldCovered - concentrated.covered) /
                        (reps - concentrated.samples)
                      : null,
                },
              }),
        },
        macro: summary(t.macro),
        ...(!fpc && !c.paired
          ? {
              microByDecileThreshold: THRESHOLDS.map((th, j) => ({
                threshold: th > 1 ? null : th,
                shareKept: byThreshold[j].kept / reps,
                coverageKept:
                  byThreshold[j].kept > 0 ? byThreshold[j].covered / byThreshold[j].kept : null,
              })),
            }
          : {}),
      });
    }
  }
  results[c.name] = {
    label: c.label,
    heldOut: c.heldOut === true,
    paired: c.paired === true,
    documents: M,
    results: N,
    truth,
    cells,
  };
  console.error(`${c.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
writeFileSync(
  join(here, "withheld.json"),
  `${JSON.stringify({ reps, seed: 1, level, powerLawDecileShare: POWER_LAW_DECILE_SHARE, results }, null, 1)}\n`,
);

const pct = (x) => (x === null ? "—" : (100 * x).toFixed(1));
const cellText = (x) =>
  x.samplesRecommended === 0
    ? "0% recommended"
    : `${pct(x.shareRecommended)}% · ${coverageText(x.coverageWhenRecommended, x.mcSe, x.samplesRecommended)}`;
const table = (estimand, fpc, paired) => {
  const head = `| ${paired ? "paired " : ""}${estimand}${fpc ? ", fpc" : ""} | ${KS.map((k) => `K = ${k}`).join(" | ")} |`;
  const rule = `|---|${KS.map(() => "---:").join("|")}|`;
  const rows = CENSUSES.filter((c) => (c.paired === true) === paired).map((c) => {
    const r = results[c.name];
    return `| ${r.label} | ${KS.map((k) => {
      const cell = r.cells.find((x) => x.k === k && x.fpc === fpc);
      return cell ? cellText(cell[estimand]) : "K ≥ M";
    }).join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
};
const concentrationTable = (fpc) => {
  const head = `| micro \`logit-cv3\`${fpc ? ", fpc" : ""}: largest decile ≥ ${pct(POWER_LAW_DECILE_SHARE)}% | ${KS.map((k) => `K = ${k}`).join(" | ")} |`;
  const rule = `|---|${KS.map(() => "---:").join("|")}|`;
  const rows = CENSUSES.filter((c) => !c.paired).map((c) => {
    const r = results[c.name];
    return `| ${r.label} | ${KS.map((k) => {
      const x = r.cells.find((y) => y.k === k && y.fpc === fpc)?.micro.concentrated;
      return x
        ? `${pct(x.share)}% · ${pct(x.coverage)} (others ${pct(x.coverageOthers)})`
        : "K ≥ M";
    }).join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
};
const thresholdTable = () => {
  const head = `| micro \`logit-cv3\`, no fpc: share of the largest decile below | ${THRESHOLDS.map((t) => (t > 1 ? "no rule" : String(t))).join(" | ")} |`;
  const rule = `|---|${THRESHOLDS.map(() => "---:").join("|")}|`;
  const rows = [];
  for (const c of CENSUSES.filter((c) => !c.paired)) {
    for (const k of KS) {
      const cell = results[c.name].cells.find((x) => x.k === k && !x.fpc);
      if (!cell) continue;
      rows.push(
        `| ${results[c.name].label}, K = ${k} | ${cell.microByDecileThreshold.map((b) => `${pct(b.shareKept)}% · ${pct(b.coverageKept)}`).join(" | ")} |`,
      );
    }
  }
  return [head, rule, ...rows].join("\n");
};
const guide = [
  `Each cell: the share of samples in which ragci recommends an interval (analyze on the sample alone, or compare's analysis of b − a), then the coverage in % of the recommended 95% interval among those samples ± its Monte Carlo se (where all of them covered, the exact one-sided 95% bound in brackets instead: "100.0 (≥ 77.9)" for 12 of 12); ${reps} SRS samples per cell, seed 1. A paired recommendation (both estimands) is withheld when fewer than 8 documents differ; a single system's never is (below: why not on size concentration). "Held out" censuses were generated by heldout.py, or (TAT-QA, real) added, after the rules were chosen.`,
  "",
  table("micro", false, false),
  "",
  table("micro", true, false),
  "",
  table("macro", false, false),
  "",
  table("macro", true, false),
  "",
  table("micro", false, true),
  "",
  table("micro", true, true),
  "",
  table("macro", false, true),
  "",
  table("macro", true, true),
].join("\n");
const choice = [
  `Why the micro recommendation is not withheld on size concentration: the samples whose largest 10% of documents hold ≥ ${pct(POWER_LAW_DECILE_SHARE)}% of the results (the power-law-sizes warning) — their share, logit-cv3's coverage among them, and among the other samples:`,
  "",
  concentrationTable(false),
  "",
  concentrationTable(true),
  "",
  "Had the micro recommendation been withheld at a threshold on the largest decile's share, the samples kept and logit-cv3's coverage among them (no fpc); every threshold lowers the coverage of what is kept, since it removes the samples that drew the census's largest documents:",
  "",
  thresholdTable(),
].join("\n");
writeFileSync(
  join(here, "WITHHELD.md"),
  alignTables(
    `# When ragci withholds a recommendation\n\nGenerated by \`node bench/method-guide/withheld.mjs\`; do not edit.\n\n${guide}\n\n${choice}\n`,
  ),
);
writeGuideSection("withheld-guide", guide);
console.error(
  "wrote bench/method-guide/withheld.json, WITHHELD.md and docs/choosing-an-interval.md",
);
