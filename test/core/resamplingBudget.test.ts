import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { analyze } from "../../src/core/analyze.js";
import {
  chunkBootstrapValuesToKeep,
  DEFAULT_MAX_RESAMPLING_DRAWS,
  resamplingBudget,
} from "../../src/core/resamplingBudget.js";
import { CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS } from "../../src/core/resamplingIntervals.js";

describe("resamplingBudget", () => {
  it("limits a default B and the chunk bootstrap; what was asked for has no limit", () => {
    expect(resamplingBudget({ replicatesGiven: false, chunkBootstrap: false })).toEqual({
      maxResamplingDraws: 1e8,
      chunkBootstrapMaxDraws: 2e6,
    });
    expect(resamplingBudget({ replicatesGiven: true, chunkBootstrap: true })).toEqual({
      maxResamplingDraws: null,
      chunkBootstrapMaxDraws: null,
    });
    expect(DEFAULT_MAX_RESAMPLING_DRAWS).toBe(1e8);
    expect(CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS).toBe(2e6);
  });

  it("with analyze: B·K over the default budget leaves the bootstraps unavailable, a given B runs", () => {
    // K = 200 documents: B = 600,000 would be 1.2·10⁸ draws, over 10⁸. A given B of 99 runs.
    const k = 200;
    const ids = Array.from({ length: k }, (_, d) => `d${d}`);
    const n = ids.map((_, d) => 1 + (d % 5));
    const stats = documentStats({ ids, n, s: n.map((x, d) => (d % 3 === 0 ? x : x - 1)) });
    const over = analyze(stats, {
      replicates: 600_000,
      ...resamplingBudget({ replicatesGiven: false, chunkBootstrap: false }),
    });
    expect(over.micro?.intervals["bootstrap-t"]?.available).toBe(false);
    const given = analyze(stats, {
      replicates: 99,
      ...resamplingBudget({ replicatesGiven: true, chunkBootstrap: false }),
    });
    expect(given.micro?.intervals["bootstrap-percentile"]?.available).toBe(true);
  });

  it("chunkBootstrapValuesToKeep: the row limit 2·10⁹ over B, none without resampling", () => {
    expect(chunkBootstrapValuesToKeep(9999)).toBe(200_020);
    expect(chunkBootstrapValuesToKeep(1)).toBe(2e9);
    expect(chunkBootstrapValuesToKeep(0)).toBe(0);
  });
});
