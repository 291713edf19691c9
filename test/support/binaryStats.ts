import type { DocumentStats } from "../../src/core/types.js";

/** Per-document tables of a 0/1 metric: n_d results, s_d hits (so ss_d = s_d), ids d0, d1, … */
export function binaryStats(n: readonly number[], s: readonly number[]): DocumentStats {
  return {
    ids: n.map((_, d) => `d${d}`),
    n: Float64Array.from(n),
    s: Float64Array.from(s),
    ss: Float64Array.from(s),
    binary: true,
    min: 0,
    max: 1,
  };
}
