import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  documentBootstrap,
  documentBootstrapInJs,
} from "../../../src/core/bootstrap/documentBootstrap.js";
import { documentBootstrapQuantiles } from "../../../src/core/bootstrap/documentBootstrapQuantiles.js";
import { quantilesType7 } from "../../../src/core/numeric/quantileType7.js";
import type { DocumentStats } from "../../../src/core/types.js";

function stats(n: number[], s: number[]): DocumentStats {
  return {
    ids: n.map((_, d) => `d${d}`),
    n: Float64Array.from(n),
    s: Float64Array.from(s),
    ss: Float64Array.from(s),
    binary: false,
    min: null,
    max: null,
  };
}

const COLUMNS = ["macro", "micro", "macroT", "microT", "degenerate"] as const;

/** Every replicate column equal bit for bit (Object.is: −0, NaN and ∞ included). */
function expectSameReplicates(
  a: ReturnType<typeof documentBootstrap>,
  b: ReturnType<typeof documentBootstrap>,
) {
  expect(a.degenerateCount).toBe(b.degenerateCount);
  for (const column of COLUMNS) {
    const x = Array.from(a[column]);
    const y = Array.from(b[column]);
    expect(x.length).toBe(y.length);
    for (let i = 0; i < x.length; i++)
      if (!Object.is(x[i], y[i])) expect([column, i, x[i]]).toEqual([column, i, y[i]]);
  }
}

describe("documentBootstrap's WebAssembly kernel", () => {
  it("documentBootstrap(stats) equals documentBootstrapInJs(stats) bit for bit (random data, K, B, seeds)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 60 }),
            p: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          { minLength: 2, maxLength: 70 },
        ),
        fc.integer({ min: 1, max: 1500 }),
        fc.nat({ max: 2 ** 31 }),
        fc.boolean(),
        (docs, replicates, seed, keyed) => {
          const n = docs.map((d) => d.n);
          // 0/1 data (whole sums) or real-valued sums
          const s = docs.map((d, i) => (i % 2 ? Math.round(d.p * d.n) : d.p * d.n));
          const options = { replicates, seed, ...(keyed ? { spawnKey: [seed % 97, 1] } : {}) };
          const full = { micro: 0.3, macro: 0.4 };
          expectSameReplicates(
            documentBootstrap(stats(n, s), full, options),
            documentBootstrapInJs(stats(n, s), full, options),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("agrees on degenerate replicates: every rate equal (2/4 = 1/2 = 3/6), and K = 2", () => {
    for (const [n, s] of [
      [
        [4, 2, 6, 8],
        [2, 1, 3, 4],
      ],
      [
        [3, 5],
        [1, 4],
      ],
      [
        [1, 1, 1],
        [0, 0, 1],
      ],
    ] as const) {
      const a = documentBootstrap(
        stats([...n], [...s]),
        { micro: 0.5, macro: 0.5 },
        { replicates: 999 },
      );
      expectSameReplicates(
        a,
        documentBootstrapInJs(
          stats([...n], [...s]),
          { micro: 0.5, macro: 0.5 },
          { replicates: 999 },
        ),
      );
    }
    const equal = documentBootstrap(
      stats([4, 2, 6], [2, 1, 3]),
      { micro: 0.5, macro: 0.5 },
      {
        replicates: 50,
      },
    );
    expect(equal.degenerateCount).toBe(50);
    expect(Array.from(equal.macroT)).toEqual(new Array(50).fill(0));
  });

  it("agrees across the kernel's blocks (K = 700, B = 300: several blocks of rows) and reports progress per block", () => {
    const n = Array.from({ length: 700 }, (_, d) => 1 + ((d * 37) % 23));
    const s = n.map((x, d) => (d * 13) % (x + 1));
    const fractions: number[] = [];
    const a = documentBootstrap(
      stats(n, s),
      { micro: 0.4, macro: 0.4 },
      {
        replicates: 300,
        seed: 7,
        onProgress: (f) => fractions.push(f),
      },
    );
    expectSameReplicates(
      a,
      documentBootstrapInJs(stats(n, s), { micro: 0.4, macro: 0.4 }, { replicates: 300, seed: 7 }),
    );
    // 65536 indices per block: ⌊65536 / 700⌋ = 93 rows, so 4 blocks
    expect(fractions).toEqual([93 / 300, 186 / 300, 279 / 300, 1]);
  });
});

describe("documentBootstrapQuantiles (tails kept in the kernel's memory)", () => {
  /** The quantiles as resamplingIntervals used to take them: quantilesType7 on the columns. */
  function fromColumns(b: ReturnType<typeof documentBootstrapInJs>, level: number) {
    const ps = [(1 - level) / 2, 1 - (1 - level) / 2];
    const kept = (xs: Float64Array) => xs.filter((_, i) => b.degenerate[i] === 0);
    const q = (xs: Float64Array) => (xs.length === 0 ? null : quantilesType7(xs, ps));
    return {
      degenerateCount: b.degenerateCount,
      macro: q(b.macro),
      micro: q(b.micro),
      macroT: q(kept(b.macroT)),
      microT: q(kept(b.microT)),
    };
  }

  it("documentBootstrapQuantiles equals quantilesType7 on documentBootstrapInJs's columns (levels, B, degenerate replicates)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 9 }),
            p: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          { minLength: 2, maxLength: 12 },
        ),
        fc.integer({ min: 1, max: 3000 }),
        fc.constantFrom(0.5, 0.8, 0.9, 0.95, 0.99),
        fc.nat({ max: 1000 }),
        (docs, replicates, level, seed) => {
          // small n and few documents: many ties and degenerate replicates
          const n = docs.map((d) => d.n);
          const s = docs.map((d) => Math.round(d.p * d.n));
          const full = { micro: 0.4, macro: 0.35 };
          const got = documentBootstrapQuantiles(stats(n, s), full, { replicates, seed, level });
          const { replicates: _b, seed: _s, ...rest } = got;
          expect(rest).toEqual(
            fromColumns(documentBootstrapInJs(stats(n, s), full, { replicates, seed }), level),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads B = 9999 (ranks beyond the kept tails: selection) and all-degenerate replicates (no studentised quantiles)", () => {
    const n = [12, 3, 40, 7, 22];
    const s = [7, 1, 22, 2, 15];
    const got = documentBootstrapQuantiles(
      stats(n, s),
      { micro: 0.5, macro: 0.5 },
      {
        replicates: 9999,
        level: 0.95,
      },
    );
    const { replicates: _b, seed: _s, ...rest } = got;
    expect(rest).toEqual(
      fromColumns(
        documentBootstrapInJs(stats(n, s), { micro: 0.5, macro: 0.5 }, { replicates: 9999 }),
        0.95,
      ),
    );
    const equal = documentBootstrapQuantiles(
      stats([4, 2, 6], [2, 1, 3]),
      { micro: 0.5, macro: 0.5 },
      {
        replicates: 99,
        level: 0.95,
      },
    );
    expect(equal.degenerateCount).toBe(99);
    expect(equal.macroT).toBeNull();
    expect(equal.microT).toBeNull();
    expect(equal.macro).toEqual([0.5, 0.5]);
  });
});
