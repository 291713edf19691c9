import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { choiceWithoutReplacement } from "../../../src/core/numeric/choiceWithoutReplacement.js";
import { createPcg64, nextUint32 } from "../../../src/core/numeric/pcg64.js";
import { afterDraws, numpyChoiceFixture, streamLabel } from "./numpyChoiceFixture.js";

const { choices } = numpyChoiceFixture;

/** SHA-256 of the values as little-endian uint32 bytes (generate_choice.py's `sample_record`). */
function sha256OfUint32(values: Uint32Array): string {
  const bytes = new DataView(new ArrayBuffer(4 * values.length));
  for (let i = 0; i < values.length; i++) bytes.setUint32(4 * i, values[i] as number, true);
  return createHash("sha256").update(new Uint8Array(bytes.buffer)).digest("hex");
}

describe("choiceWithoutReplacement (numpy Generator.choice(M, K, replace=False))", () => {
  it("the fixture covers both of numpy's branches on both sides of the switch", () => {
    const branches = new Set(choices.map((c) => `${c.M}/${c.K}/${c.branch}`));
    for (const key of ["10000/201/floyd", "10001/200/floyd", "10001/201/partialShuffle"]) {
      expect(branches).toContain(key);
    }
    for (const key of [
      "100000/2000/floyd",
      "100000/2001/partialShuffle",
      "100000/100000/partialShuffle",
    ]) {
      expect(branches).toContain(key);
    }
  });

  it(`matches numpy's samples and leaves the generator where numpy does (${choices.length} cases)`, () => {
    for (const c of choices) {
      const label = `${streamLabel(c)}, M ${c.M}, K ${c.K} (${c.branch})`;
      const st = createPcg64(c.seed, c.spawnKey);
      const got = choiceWithoutReplacement(st, c.M, c.K);
      expect(got.length, label).toBe(c.K);
      if (c.values !== undefined) {
        expect(Array.from(got), label).toEqual(c.values);
      } else {
        expect(Array.from(got.subarray(0, c.head?.length)), label).toEqual(c.head);
        expect(Array.from(got.subarray(got.length - (c.tail?.length ?? 0))), label).toEqual(c.tail);
        expect(sha256OfUint32(got), label).toBe(c.sha256);
      }
      expect(afterDraws(st), `${label}, draws after`).toEqual(c.after);
    }
  });

  it("reproduces default_rng(1).choice(1000, 5, replace=False)", () => {
    expect(Array.from(choiceWithoutReplacement(createPcg64(1), 1000, 5))).toEqual([
      510, 34, 753, 949, 471,
    ]);
  });

  it("returns K distinct indices below M", () => {
    for (const [M, K] of [
      [1, 1],
      [7, 3],
      [10001, 201],
      [30000, 29999],
    ] as const) {
      const got = choiceWithoutReplacement(createPcg64(11, [2, 0]), M, K);
      expect(new Set(got).size).toBe(K);
      expect(got.every((v) => v < M)).toBe(true);
    }
  });

  it("K = 0 and M = K = 1 consume no draws", () => {
    const st = createPcg64(4);
    expect(choiceWithoutReplacement(st, 5, 0).length).toBe(0);
    expect(Array.from(choiceWithoutReplacement(st, 1, 1))).toEqual([0]);
    expect(nextUint32(st)).toBe(nextUint32(createPcg64(4)));
  });

  it("rejects K > M, negative or fractional sizes, and M beyond 2^32", () => {
    const st = createPcg64(1);
    expect(() => choiceWithoutReplacement(st, 3, 4)).toThrow(RangeError);
    expect(() => choiceWithoutReplacement(st, 3, -1)).toThrow(RangeError);
    expect(() => choiceWithoutReplacement(st, 3.5, 1)).toThrow(RangeError);
    expect(() => choiceWithoutReplacement(st, 2 ** 32 + 1, 1)).toThrow(/2\^32/);
  });
});
