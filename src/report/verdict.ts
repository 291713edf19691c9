import type { Comparison } from "../core/compare.js";
import type { Estimand } from "../core/types.js";
import { degreesOfFreedom, levelPercent, pValue, signed } from "./format.js";

/**
 * Whether both systems' metric is 0/1, so differences of rates read as percentage points.
 * A score in [0, 1] (RR, nDCG) is not a percentage: its differences stay in its own units.
 */
export function inPoints(c: Comparison): boolean {
  return c.aAnalysis.binary && c.bAnalysis.binary && c.difference.results > 0;
}

/** "tfidf − bm25 = −4.2 points [−7.0, −1.4] (micro cr2, ν = 39.3): distinguishable at 95%, bm25 higher (p = 0.004)". */
export function verdict(c: Comparison, estimand: Estimand, level: number): string {
  const test = c.tests[estimand];
  if (!test) return `${estimand}: no interval available`;
  const scale = inPoints(c) ? 100 : 1;
  const unit = scale === 100 ? " points" : "";
  const width = Math.abs(test.upper - test.lower) * scale;
  const decimals = width >= 10 ? 1 : width >= 1 ? 2 : width >= 0.1 ? 2 : 3;
  const range = `[${signed(test.lower * scale, decimals)}, ${signed(test.upper * scale, decimals)}]`;
  const head = `${estimand}: ${c.b} − ${c.a} = ${signed(test.estimate * scale, decimals)}${unit} ${range} (${test.method}, ν = ${degreesOfFreedom(test.df)})`;
  const p = test.p === null ? "" : `, p ${test.p < 1e-15 ? pValue(test.p) : `= ${pValue(test.p)}`}`;
  const withheld = c.difference[estimand]?.recommendationWithheld;
  // No verdict from an interval ragci does not recommend (recommendationWithheld.ts).
  if (withheld) return `${head}: no verdict, the interval is not recommended (${withheld.reason})`;
  if (!test.distinguishable) return `${head}: not distinguishable at ${levelPercent(level)}${p}`;
  const higher = test.estimate > 0 ? c.b : c.a;
  return `${head}: distinguishable at ${levelPercent(level)}, ${higher} higher${p}`;
}
