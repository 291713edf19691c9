import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ChunkBootstrapOptions,
  chunkBootstrapBinary,
  chunkBootstrapBinaryJs,
  chunkBootstrapRows,
  chunkBootstrapRowsJs,
  chunkDrawProbabilities,
} from "../../../src/core/bootstrap/chunkBootstrap.js";
import {
  type ChunkKernel,
  chunkReplicatesOnKernel,
  chunkRowsOnKernel,
  instantiateChunkKernel,
} from "../../../src/core/bootstrap/chunkBootstrapKernel.js";
import type { DocumentStats, ResultValues } from "../../../src/core/types.js";
import { binaryStats as stats } from "../../support/binaryStats.js";

/** A fresh instance of the kernel whose imported Math.log and `**` count their calls. */
function countingKernel(): { kernel: ChunkKernel; calls: { log: number; pow: number } } {
  const calls = { log: 0, pow: 0 };
  const kernel = instantiateChunkKernel({
    log: (x) => {
      calls.log++;
      return Math.log(x);
    },
    pow: (x, y) => {
      calls.pow++;
      return x ** y;
    },
  });
  if (!kernel) throw new Error("WebAssembly is unavailable here");
  return { kernel, calls };
}

/** Two sets of replicates equal bit for bit (Object.is: −0, NaN and ∞ included). */
function expectSameReplicates(
  got: { replicates: number; micro: Float64Array; macro: Float64Array },
  expected: { replicates: number; micro: Float64Array; macro: Float64Array },
) {
  expect(got.replicates).toBe(expected.replicates);
  for (const column of ["micro", "macro"] as const) {
    const x = Array.from(got[column]);
    const y = Array.from(expected[column]);
    expect(x.length).toBe(y.length);
    for (let b = 0; b < x.length; b++)
      if (!Object.is(x[b], y[b])) expect([column, b, x[b]]).toEqual([column, b, y[b]]);
  }
}

/** Per-query values grouped by document (offsets[d] … offsets[d + 1]). */
function resultValues(documents: number[][]): ResultValues {
  const offsets = [0];
  for (const d of documents) offsets.push((offsets.at(-1) as number) + d.length);
  return { values: Float64Array.from(documents.flat()), offsets: Uint32Array.from(offsets) };
}

/** The kernel's replicates on `kernel`, and the JS oracle's, equal bit for bit (Object.is). */
function expectKernelEqualsJs(
  kernel: ChunkKernel,
  data: DocumentStats,
  options: ChunkBootstrapOptions,
) {
  const { probabilities, total } = chunkDrawProbabilities(data);
  const got = chunkReplicatesOnKernel(kernel, probabilities, total, options);
  if (!got) throw new Error("the kernel's memory did not grow");
  expectSameReplicates(got, chunkBootstrapBinaryJs(data, options));
}

describe("the chunk bootstrap's WebAssembly kernel", () => {
  it("is what chunkBootstrapBinary runs here (the oracle tests below would pass on JS alone)", () => {
    const { kernel, calls } = countingKernel();
    const data = stats([40, 25, 3], [10, 25, 1]);
    const { probabilities, total } = chunkDrawProbabilities(data);
    const onKernel = chunkReplicatesOnKernel(kernel, probabilities, total, {
      replicates: 50,
      seed: 3,
    });
    // the first draw of a slot at a given n computes qⁿ through the import
    expect(calls.pow).toBeGreaterThan(0);
    expect(onKernel).not.toBeNull();
    const used = chunkBootstrapBinary(data, { replicates: 50, seed: 3 });
    expect(Array.from(used.micro)).toEqual(Array.from(onKernel?.micro ?? []));
  });

  it("equals chunkBootstrapBinaryJs replicate for replicate (random sizes, rates, B, seeds, spawn keys)", () => {
    const { kernel } = countingKernel();
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 400 }),
            rate: fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: 0, max: 1, noNaN: true })),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 2 }),
        (documents, replicates, seed, spawnKey) => {
          const n = documents.map((d) => d.n);
          const s = documents.map((d) => Math.round(d.rate * d.n));
          expectKernelEqualsJs(kernel, stats(n, s), { replicates, seed, spawnKey });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("takes BTRD's squeeze and its exact test (Math.log) on large documents, as the oracle does", () => {
    const { kernel, calls } = countingKernel();
    // n·p·q in the thousands: |k − m| > 15 is common, and then the logarithms decide
    expectKernelEqualsJs(
      kernel,
      stats([200_000, 150_000, 90_000, 5], [61_000, 149_000, 45_000, 2]),
      {
        replicates: 400,
        seed: 12,
      },
    );
    expect(calls.log).toBeGreaterThan(100);
  });

  it("computes qⁿ on every draw once the cache is full (more than 2²⁰ entries), as the oracle does", () => {
    const { kernel, calls } = countingKernel();
    // documents with a tiny share of 3·10⁶ results: each slot's cache would cover up to 10/p draws
    const n = [...Array.from({ length: 30 }, (_, d) => 1 + (d % 4)), 3_000_000];
    const s = n.map((x, d) => (d % 3 === 0 ? 0 : Math.floor(x / 2)));
    expectKernelEqualsJs(kernel, stats(n, s), { replicates: 60, seed: 5 });
    // slots past the cache call `**` on every inversion draw
    expect(calls.pow).toBeGreaterThan(60 * 10);
  });

  it("reports progress at the replicates the JS form reports it", () => {
    const { kernel } = countingKernel();
    const data = stats([12, 7, 30, 1], [3, 7, 0, 1]);
    const { probabilities, total } = chunkDrawProbabilities(data);
    for (const replicates of [1, 99, 100, 250, 1001]) {
      const seen: number[] = [];
      const expected: number[] = [];
      chunkReplicatesOnKernel(kernel, probabilities, total, {
        replicates,
        seed: 1,
        onProgress: (f) => seen.push(f),
      });
      chunkBootstrapBinaryJs(data, { replicates, seed: 1, onProgress: (f) => expected.push(f) });
      expect(seen).toEqual(expected);
    }
  });

  it("gives the same replicates whether run in one call or in progress slices", () => {
    const { kernel } = countingKernel();
    const data = stats([50, 8, 300, 21, 2], [13, 8, 150, 0, 1]);
    const { probabilities, total } = chunkDrawProbabilities(data);
    const whole = chunkReplicatesOnKernel(kernel, probabilities, total, {
      replicates: 777,
      seed: 9,
    });
    const sliced = chunkReplicatesOnKernel(kernel, probabilities, total, {
      replicates: 777,
      seed: 9,
      onProgress: () => {},
    });
    expect(Array.from(sliced?.micro ?? [])).toEqual(Array.from(whole?.micro ?? []));
    expect(Array.from(sliced?.macro ?? [])).toEqual(Array.from(whole?.macro ?? []));
  });
});

describe("the row-level chunk bootstrap's WebAssembly kernel ($bounded + $rows)", () => {
  function kernel(): ChunkKernel {
    const k = instantiateChunkKernel();
    if (!k) throw new Error("WebAssembly is unavailable here");
    return k;
  }

  function expectRowsEqualJs(k: ChunkKernel, values: ResultValues, options: ChunkBootstrapOptions) {
    const got = chunkRowsOnKernel(k, values, options);
    if (!got) throw new Error("the row kernel declined");
    expectSameReplicates(got, chunkBootstrapRowsJs(values, options));
  }

  it("is what chunkBootstrapRows runs here", () => {
    const values = resultValues([[0.5, 1, 0], [0.25], [1, 1, 0.2, 0.1]]);
    const onKernel = chunkRowsOnKernel(kernel(), values, { replicates: 40, seed: 2 });
    expect(onKernel).not.toBeNull();
    const used = chunkBootstrapRows(values, { replicates: 40, seed: 2 });
    expect(Array.from(used.macro)).toEqual(Array.from(onKernel?.macro ?? []));
  });

  it("equals chunkBootstrapRowsJs replicate for replicate (random values, sizes, B, seeds)", () => {
    const k = kernel();
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.oneof(
              fc.constantFrom(0, 1, -1, 0.5),
              fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
            ),
            { minLength: 1, maxLength: 30 },
          ),
          { minLength: 1, maxLength: 25 },
        ),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 2 }),
        (documents, replicates, seed, spawnKey) => {
          const values = resultValues(documents);
          if (values.values.length < 2) return; // one row: numpy draws nothing (JS only)
          expectRowsEqualJs(k, values, { replicates, seed, spawnKey });
        },
      ),
      { numRuns: 120 },
    );
  });

  it("continues the stream across $bounded calls: N > 2¹⁶ rows (one replicate a call) and N just under", () => {
    const k = kernel();
    for (const N of [70_001, 40_000]) {
      const documents = Array.from({ length: 7 }, (_, d) =>
        Array.from(
          { length: Math.floor(N / 7) + (d < N % 7 ? 1 : 0) },
          (_, i) => ((i * 7919 + d) % 101) / 100,
        ),
      );
      expectRowsEqualJs(k, resultValues(documents), { replicates: 5, seed: 11, spawnKey: [3] });
    }
  });

  it("reports progress at the replicates the JS form reports it, across call boundaries", () => {
    const k = kernel();
    // 30,000 rows: two replicates per $bounded call, progress every 1 or 3 replicates
    const values = resultValues([Array.from({ length: 30_000 }, (_, i) => (i % 3) / 2), [1, 0]]);
    for (const replicates of [7, 150, 301]) {
      const seen: number[] = [];
      const expected: number[] = [];
      const got = chunkRowsOnKernel(k, values, {
        replicates,
        seed: 4,
        onProgress: (f) => seen.push(f),
      });
      const js = chunkBootstrapRowsJs(values, {
        replicates,
        seed: 4,
        onProgress: (f) => expected.push(f),
      });
      expect(seen).toEqual(expected);
      if (!got) throw new Error("the row kernel declined");
      expectSameReplicates(got, js);
    }
  });

  it("declines one row, where numpy draws nothing (the JS form gives the row's value)", () => {
    const values = resultValues([[0.7]]);
    expect(chunkRowsOnKernel(kernel(), values, { replicates: 3, seed: 1 })).toBeNull();
    expect(Array.from(chunkBootstrapRows(values, { replicates: 3, seed: 1 }).micro)).toEqual([
      0.7, 0.7, 0.7,
    ]);
  });
});
