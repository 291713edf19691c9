import { describe, expect, it } from "vitest";
import {
  fillBoundedIntegers,
  nextBoundedInteger,
} from "../../../src/core/numeric/boundedIntegers.js";
import { createPcg64 } from "../../../src/core/numeric/pcg64.js";
import {
  generateState,
  seedEntropyWords,
  seedSequenceEntropy,
  seedSequencePool,
  seedSequenceState,
} from "../../../src/core/numeric/seedSequence.js";
import { nextUniform, uniformSource } from "../../../src/core/numeric/uniform.js";
import { afterDraws, numpyChoiceFixture, streamLabel } from "./numpyChoiceFixture.js";

const { seedSequenceStates, resamples } = numpyChoiceFixture;

describe("seedSequenceEntropy (numpy SeedSequence.get_assembled_entropy)", () => {
  it("pads the seed words to the pool size before a non-empty spawn key", () => {
    expect(Array.from(seedSequenceEntropy(5, [3, 1]))).toEqual([5, 0, 0, 0, 3, 1]);
    expect(Array.from(seedSequenceEntropy(0, [0, 0]))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(seedSequenceEntropy(2 ** 32 + 7, [0]))).toEqual([7, 1, 0, 0, 0]);
    expect(Array.from(seedSequenceEntropy(7, [2 ** 32 + 5, 3]))).toEqual([7, 0, 0, 0, 5, 1, 3]);
  });

  it("is the seed's words alone for an empty key (the unspawned streams are unchanged)", () => {
    for (const seed of [0, 1, 2 ** 32 + 7, 2 ** 53 - 1]) {
      expect(seedSequenceEntropy(seed)).toEqual(seedEntropyWords(seed));
      expect(seedSequenceState(seed, 8, [])).toEqual(
        generateState(seedSequencePool(seedEntropyWords(seed)), 8),
      );
    }
  });

  it("rejects spawn key elements that are not non-negative safe integers", () => {
    expect(() => seedSequenceEntropy(1, [-1])).toThrow(RangeError);
    expect(() => seedSequenceEntropy(1, [0.5])).toThrow(/spawn key element/);
  });
});

describe("spawned streams (Generator(PCG64(SeedSequence(seed, spawn_key=(i, j)))))", () => {
  it(`generate_state(8) matches numpy for ${seedSequenceStates.length} (seed, key) pairs`, () => {
    for (const c of seedSequenceStates) {
      expect(Array.from(seedSequenceState(c.seed, 8, c.spawnKey)), streamLabel(c)).toEqual(c.state);
    }
  });

  it("random(3), then integers(0, K, (B, K)), then mixed draws match numpy", () => {
    for (const c of resamples) {
      const st = createPcg64(c.seed, c.spawnKey);
      const random = [nextUniform(st), nextUniform(st), nextUniform(st)];
      const integers = new Uint32Array(c.B * c.K);
      fillBoundedIntegers(st, c.K, integers);
      expect(random, streamLabel(c)).toEqual(c.random);
      expect(Array.from(integers), `${streamLabel(c)}, K ${c.K}, B ${c.B}`).toEqual(c.integers);
      expect(afterDraws(st), `${streamLabel(c)}, after`).toEqual(c.after);
    }
  });

  it("uniformSource with a spawn key gives the same random() draws", () => {
    for (const c of resamples.slice(0, 20)) {
      const uniform = uniformSource(c.seed, c.spawnKey);
      expect([uniform(), uniform(), uniform()], streamLabel(c)).toEqual(c.random);
    }
  });

  it("nextBoundedInteger one draw at a time equals fillBoundedIntegers", () => {
    for (const K of [1, 2, 7, 1000, 2 ** 21 + 1, 2 ** 31 + 1, 2 ** 32 - 1, 2 ** 32]) {
      const bulk = new Uint32Array(501);
      fillBoundedIntegers(createPcg64(3, [4, 1]), K, bulk);
      const st = createPcg64(3, [4, 1]);
      const single = Array.from({ length: 501 }, () => nextBoundedInteger(st, K));
      expect(single, `K ${K}`).toEqual(Array.from(bulk));
    }
  });
});
