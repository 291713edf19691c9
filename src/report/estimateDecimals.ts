import type { Analysis, EstimandAnalysis } from "../core/analyze.js";
import { decimalsFor } from "./format.js";

/**
 * Decimals for an analysis's estimates and bounds: about three significant digits of the
 * narrowest recommended interval (or of the estimate where none is available), as the
 * terminal prints them.
 */
export function estimateDecimals(a: Analysis): number {
  const estimands = [a.micro, a.macro].filter((e): e is EstimandAnalysis => e !== null);
  const scale = Math.min(
    ...estimands.map((e) => {
      const i = e.intervals[e.recommended];
      return i?.available && i.upper > i.lower ? i.upper - i.lower : Math.abs(e.estimate) || 1;
    }),
  );
  return decimalsFor(scale);
}
