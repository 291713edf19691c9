import { readFileSync } from "node:fs";
import { nextBoundedInteger } from "../../../src/core/numeric/boundedIntegers.js";
import type { Pcg64State } from "../../../src/core/numeric/pcg64.js";
import { nextUniform } from "../../../src/core/numeric/uniform.js";

/** Draws after a stream's main call: integers(0, 7, 3), random(2), integers(0, 7, 1). */
export interface AfterDraws {
  integers_0_7: number[];
  random: number[];
  integers_0_7_again: number[];
}

/** One numpy stream, `Generator(PCG64(SeedSequence(seed, spawn_key=spawnKey)))`. */
interface Stream {
  seed: number;
  spawnKey: number[];
}

export interface SeedStateCase extends Stream {
  /** `generate_state(8)` as uint32 words. */
  state: number[];
}

export interface ResampleCase extends Stream {
  /** `random(3)`, then `integers(0, K, (B, K))` flattened, then `after`. */
  random: number[];
  K: number;
  B: number;
  integers: number[];
  after: AfterDraws;
}

export interface ChoiceCase extends Stream {
  M: number;
  K: number;
  branch: "floyd" | "partialShuffle";
  /** The whole sample (K ≤ 300) … */
  values?: number[];
  /** … or SHA-256 of its little-endian uint32 bytes with its first and last 10 values. */
  sha256?: string;
  head?: number[];
  tail?: number[];
  after: AfterDraws;
}

export interface NumpyChoiceFixture {
  source: string;
  seedSequenceStates: SeedStateCase[];
  resamples: ResampleCase[];
  choices: ChoiceCase[];
}

/** test/fixtures/numpy/choice.json, written by generate_choice.py beside it (numpy 2.4.6). */
export const numpyChoiceFixture: NumpyChoiceFixture = JSON.parse(
  readFileSync(new URL("../../fixtures/numpy/choice.json", import.meta.url), "utf8"),
);

/** `[seed, (i, j)]` label for assertion messages. */
export function streamLabel({ seed, spawnKey }: Stream): string {
  return `seed ${seed}, spawn_key (${spawnKey.join(", ")})`;
}

/** The draws generate_choice.py's `after_draws` makes, in its order. */
export function afterDraws(st: Pcg64State): AfterDraws {
  const integers = (n: number) => Array.from({ length: n }, () => nextBoundedInteger(st, 7));
  return {
    integers_0_7: integers(3),
    random: [nextUniform(st), nextUniform(st)],
    integers_0_7_again: integers(1),
  };
}
