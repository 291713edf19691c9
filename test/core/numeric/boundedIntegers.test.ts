import { describe, expect, it } from "vitest";
import {
  documentResampleIndices,
  fillBoundedIntegers,
} from "../../../src/core/numeric/boundedIntegers.js";
import { createPcg64 } from "../../../src/core/numeric/pcg64.js";
import { runNumpy } from "./numpyOracle.js";

const SMALL_K = [1, 2, 3, 5, 7, 20, 25, 40, 1000];
// 2^31 + 1 and 3·2^30 have thresholds 2^32 mod K of 2^31 − 1 and 2^30: Lemire's rejection
// loop runs for about 1/2 and 1/4 of the draws (for small K it essentially never runs).
const LARGE_K = [2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 3 * 2 ** 30, 2 ** 32 - 1, 2 ** 32];
const SEEDS = [1, 2, 99];
/** Draws per (seed, K) pair: small K as a (B, K) matrix of about this size, large K flat. */
const TARGET_ENTRIES = 3000;

function rowsFor(K: number): number {
  return Math.max(1, Math.round(TARGET_ENTRIES / K));
}

describe("documentResampleIndices (default_rng(seed).integers(0, K, (B, K)))", () => {
  it("matches numpy's (B, K) matrices for small K and seeds 1, 2, 99", () => {
    const cases = SEEDS.flatMap((seed) => SMALL_K.map((K) => ({ seed, K, B: rowsFor(K) })));
    const expected = runNumpy<number[][]>(`
cases = ${JSON.stringify(cases)}
print(json.dumps([np.random.default_rng(c['seed']).integers(0, c['K'], (c['B'], c['K'])).ravel().tolist()
                  for c in cases]))`);
    cases.forEach(({ seed, K, B }, i) => {
      const got = documentResampleIndices(seed, K, B);
      expect(got.length).toBe(B * K);
      expect(Array.from(got), `seed ${seed}, K ${K}, B ${B}`).toEqual(expected[i]);
    });
  });

  it("matches numpy for K near and at 2^31 and 2^32, including heavy rejection", () => {
    const cases = SEEDS.flatMap((seed) => LARGE_K.map((K) => ({ seed, K })));
    const expected = runNumpy<number[][]>(`
cases = ${JSON.stringify(cases)}
print(json.dumps([np.random.default_rng(c['seed']).integers(0, c['K'], ${TARGET_ENTRIES}).tolist()
                  for c in cases]))`);
    cases.forEach(({ seed, K }, i) => {
      const out = new Uint32Array(TARGET_ENTRIES);
      fillBoundedIntegers(createPcg64(seed), K, out);
      expect(Array.from(out), `seed ${seed}, K ${K}`).toEqual(expected[i]);
    });
  });

  it("reproduces the known first rows for seed 1", () => {
    const k5 = documentResampleIndices(1, 5, 9999);
    expect(Array.from(k5.subarray(0, 10))).toEqual([2, 2, 3, 4, 0, 0, 4, 4, 1, 1]);
    expect(Array.from(documentResampleIndices(1, 25, 9999).subarray(0, 25))).toEqual([
      11, 12, 18, 23, 0, 3, 20, 23, 6, 7, 21, 10, 6, 20, 6, 10, 16, 13, 2, 0, 21, 18, 20, 13, 20,
    ]);
    expect(Array.from(documentResampleIndices(1, 40, 9999).subarray(0, 40))).toEqual([
      18, 20, 30, 38, 1, 5, 32, 37, 9, 12, 34, 16, 10, 33, 10, 16, 25, 21, 3, 1, 34, 30, 33, 21, 32,
      13, 18, 31, 4, 12, 4, 18, 39, 5, 15, 16, 36, 8, 20, 10,
    ]);
  });

  it("equals numpy's full 9999×5, 9999×25 and 9999×40 matrices for seed 1", () => {
    const expected = runNumpy<Record<string, number[]>>(`
print(json.dumps({str(K): np.random.default_rng(1).integers(0, K, (9999, K)).ravel().tolist()
                  for K in (5, 25, 40)}))`);
    for (const K of [5, 25, 40]) {
      const got = documentResampleIndices(1, K, 9999);
      const want = expected[String(K)] ?? [];
      expect(want.length).toBe(9999 * K);
      let firstMismatch = -1;
      for (let i = 0; i < want.length; i++) {
        if (got[i] !== want[i]) {
          firstMismatch = i;
          break;
        }
      }
      expect(firstMismatch, `K ${K}: first differing flat index`).toBe(-1);
    }
  });

  it("keeps numpy's uint32 buffer across consecutive integers() calls", () => {
    const expected = runNumpy<number[]>(`
g = np.random.default_rng(99)
parts = [g.integers(0, 7, 3), g.integers(0, 1, 4), g.integers(0, 1000, 5), g.integers(0, 2**32, 3), g.integers(0, 25, 6)]
print(json.dumps(np.concatenate(parts).tolist()))`);
    const st = createPcg64(99);
    const got: number[] = [];
    for (const [K, n] of [
      [7, 3],
      [1, 4],
      [1000, 5],
      [2 ** 32, 3],
      [25, 6],
    ] as const) {
      const out = new Uint32Array(n);
      fillBoundedIntegers(st, K, out);
      got.push(...out);
    }
    expect(got).toEqual(expected);
  });

  it("K = 1 gives zeros without consuming draws", () => {
    const st = createPcg64(3);
    const zeros = new Uint32Array(10).fill(9);
    fillBoundedIntegers(st, 1, zeros);
    expect(Array.from(zeros)).toEqual(new Array(10).fill(0));
    const after = new Uint32Array(20);
    fillBoundedIntegers(st, 20, after);
    expect(Array.from(after)).toEqual(Array.from(documentResampleIndices(3, 20, 1)));
  });

  it("rejects bounds it cannot reproduce exactly", () => {
    const st = createPcg64(1);
    const out = new Uint32Array(1);
    for (const K of [0, -3, 2.5, 2 ** 32 + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => fillBoundedIntegers(st, K, out), `K ${K}`).toThrow(RangeError);
    }
    expect(() => documentResampleIndices(1, 5, -1)).toThrow(RangeError);
    expect(() => documentResampleIndices(1, 5, 1.5)).toThrow(RangeError);
  });
});
