import type { DocumentStats } from "../../src/core/types.js";

/** Per-document statistics as plain arrays, for toEqual to compare bit for bit (doubles exact). */
export function plainStats(stats: DocumentStats) {
  return {
    ids: [...stats.ids],
    n: [...stats.n],
    s: [...stats.s],
    ss: [...stats.ss],
    binary: stats.binary,
    min: stats.min,
    max: stats.max,
  };
}
