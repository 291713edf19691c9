import { describe, expect, it } from "vitest";
import {
  generateState,
  seedEntropyWords,
  seedSequencePool,
  seedSequenceState,
} from "../../../src/core/numeric/seedSequence.js";
import { runNumpy } from "./numpyOracle.js";

const SEEDS = [0, 1, 2, 99, 12345, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 7, 2 ** 53 - 1];

describe("seedSequenceState (numpy SeedSequence.generate_state)", () => {
  it("SeedSequence(1).generate_state(8) matches numpy", () => {
    const expected = runNumpy<number[]>(
      "print(json.dumps(np.random.SeedSequence(1).generate_state(8).tolist()))",
    );
    expect(Array.from(seedSequenceState(1, 8))).toEqual(expected);
  });

  it("matches numpy for small and large seeds and several lengths", () => {
    const expected = runNumpy<Record<string, Record<string, number[]>>>(`
seeds = ${JSON.stringify(SEEDS.map(String))}
print(json.dumps({s: {str(n): np.random.SeedSequence(int(s)).generate_state(n).tolist()
                      for n in (0, 1, 4, 8, 13)} for s in seeds}))`);
    for (const seed of SEEDS) {
      for (const n of [0, 1, 4, 8, 13]) {
        expect(Array.from(seedSequenceState(seed, n)), `seed ${seed}, ${n} words`).toEqual(
          expected[String(seed)]?.[String(n)],
        );
      }
    }
  });

  it("matches numpy's uint64 words as little-endian pairs", () => {
    const expected = runNumpy<string[]>(
      `print(json.dumps(['%016x' % int(v) for v in np.random.SeedSequence(2**32 + 7).generate_state(4, np.uint64)]))`,
    );
    const w = seedSequenceState(2 ** 32 + 7, 8);
    const pairs = [0, 1, 2, 3].map(
      (i) =>
        (w[2 * i + 1] as number).toString(16).padStart(8, "0") +
        (w[2 * i] as number).toString(16).padStart(8, "0"),
    );
    expect(pairs).toEqual(expected);
  });

  it("splits entropy into 32-bit words, low word first", () => {
    expect(Array.from(seedEntropyWords(0))).toEqual([0]);
    expect(Array.from(seedEntropyWords(12345))).toEqual([12345]);
    expect(Array.from(seedEntropyWords(2 ** 32 + 7))).toEqual([7, 1]);
    expect(Array.from(seedEntropyWords(2 ** 53 - 1))).toEqual([0xffffffff, 0x1fffff]);
  });

  it("handles entropy longer than the pool like numpy", () => {
    const entropy = [1, 2, 3, 4, 5, 6, 0xffffffff];
    const expected = runNumpy<number[]>(
      `print(json.dumps(np.random.SeedSequence(${JSON.stringify(entropy)}).generate_state(6).tolist()))`,
    );
    expect(Array.from(generateState(seedSequencePool(entropy), 6))).toEqual(expected);
  });

  it("rejects negative, fractional and unsafe seeds", () => {
    expect(() => seedSequenceState(-1, 4)).toThrow(RangeError);
    expect(() => seedSequenceState(1.5, 4)).toThrow(RangeError);
    expect(() => seedSequenceState(2 ** 53, 4)).toThrow(RangeError);
    expect(() => seedSequenceState(Number.NaN, 4)).toThrow(RangeError);
  });
});
