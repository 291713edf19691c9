// 1. cr2 + ν and the whole analyze() in-process on K = 10⁶ documents, against numpy's O(K)
// formulas (bench/py/cr2_linear.py); the default B = 9999 bootstrap extrapolated from its
// cost per resampled document on K = 10⁴, B = 999.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { perDocument } from "../generate.mjs";
import {
  fmtTime,
  fmtTimed,
  log,
  median,
  OUT,
  REPEATS,
  relDiff,
  timeInProcess,
} from "../harness.mjs";

export const K_LARGE = 1_000_000;
export const K_SMALL = 10_000;

export async function inProcess(ctx) {
  const { core } = ctx;
  log(`1. generating K = ${K_LARGE} documents`);
  const large = perDocument(K_LARGE, 1);
  const docStatsTime = timeInProcess(() => core.documentStats(large), { repeats: 1, warmup: 0 });
  const stats = docStatsTime.value;
  const rawN = path.join(OUT, "n-1e6.f64");
  const rawS = path.join(OUT, "s-1e6.f64");
  writeFileSync(rawN, Buffer.from(stats.n.buffer));
  writeFileSync(rawS, Buffer.from(stats.s.buffer));

  const cr2Time = timeInProcess(() => core.cr2(stats), { repeats: 15, warmup: 5 });
  const dfTime = timeInProcess(() => core.cr2DegreesOfFreedom(stats), { repeats: 9, warmup: 3 });
  log(`  cr2: ${fmtTimed(cr2Time)}; ν alone: ${fmtTimed(dfTime)}`);
  const analytic = { replicates: 0 };
  const analyzeTime = timeInProcess(() => core.analyze(stats, analytic), {
    repeats: REPEATS,
    warmup: 1,
  });
  log(`  analyze (replicates: 0): ${fmtTimed(analyzeTime)}`);
  // Running B = 9999 on K = 10⁶ would take far longer than the whole benchmark.
  const smallStats = core.documentStats(perDocument(K_SMALL, 2));
  const b = 999;
  const without = timeInProcess(() => core.analyze(smallStats, analytic), { repeats: 1 }).min;
  const withB = timeInProcess(() => core.analyze(smallStats, { replicates: b }), {
    repeats: 1,
    warmup: 0,
  }).min;
  const perDraw = Math.max(0, withB - without) / (b * K_SMALL);
  const extrapolate = (k, analyticSeconds) => analyticSeconds + perDraw * 9999 * k;
  log(
    `  bootstrap: B = ${b} on K = ${K_SMALL}: ${fmtTime(withB)} (${(perDraw * 1e9).toFixed(1)} ns per resampled document)`,
  );

  const numpy = ctx.pythonOnce("cr2_linear.py", [rawN, rawS]);
  const numpyTime = { median: median(numpy.times), min: Math.min(...numpy.times) };
  log(`  numpy O(K) same formulas: ${fmtTimed(numpyTime)}`);
  ctx.checks.push(
    `cr2 on K = 10⁶: ragci se ${cr2Time.value.se.toPrecision(12)}, ν ${cr2Time.value.df.toPrecision(12)}; ` +
      `numpy O(K) se ${numpy.se.toPrecision(12)}, ν ${numpy.df.toPrecision(12)} ` +
      `(relative differences ${relDiff(cr2Time.value.se, numpy.se).toExponential(1)}, ${relDiff(cr2Time.value.df, numpy.df).toExponential(1)})`,
  );
  ctx.details.push(
    `cr2DegreesOfFreedom alone, K = 10⁶: ${fmtTimed(dfTime)}; documentStats on K = 10⁶ (one run): ${fmtTime(docStatsTime.min)}`,
  );
  ctx.rows.push(
    {
      case: "1a. cr2 + ν in-process, K = 10⁶",
      ragci: cr2Time,
      reference: numpyTime,
      referenceName: "numpy, same O(K) formulas, K = 10⁶",
      target: "< 50 ms",
      met: cr2Time.median < 0.05,
    },
    {
      case: "1b. analyze(stats, { replicates: 0 }) in-process, K = 10⁶",
      ragci: analyzeTime,
      reference: null,
      referenceName: "—",
      target: "(none)",
      met: null,
    },
    {
      case: "1c. analyze(stats) default (B = 9999 bootstrap), K = 10⁶",
      ragciText: `≈ ${fmtTime(extrapolate(K_LARGE, analyzeTime.median))} (extrapolated, not run)`,
      reference: null,
      referenceName: `— (measured: B = ${b}, K = 10⁴ takes ${fmtTime(withB)})`,
      target: "(none)",
      met: null,
    },
  );
  return { large, stats, cr2Time, analyzeTime, extrapolate };
}
