/**
 * A coverage study at K = M cannot miss (every sample is the census): the library refuses it
 * in one line that says what to do instead, and runs at K = M − 1, where samples differ.
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { RagciError } from "../../../src/core/errors.js";
import { runRepetitions, type StudyOptions } from "../../../src/core/simulation/coverageStudy.js";
import { refuseDegenerateStudy } from "../../../src/core/simulation/degenerateStudy.js";
import { studyColumns } from "../../../src/core/simulation/studyColumns.js";
import { MAX_STUDY_REPETITIONS } from "../../../src/core/simulation/studyRepetitions.js";

// Eight documents of unequal sizes and rates (hand-written: the rule needs only M).
const census = documentStats({
  ids: ["a", "b", "c", "d", "e", "f", "g", "h"],
  n: [3, 5, 2, 8, 4, 6, 1, 7],
  s: [1, 4, 0, 3, 4, 2, 1, 5],
});
const M = 8;

function options(documents: number): StudyOptions {
  return { documents, repetitions: 3, replicates: 19, seed: 1, level: 0.95, fpc: true };
}

describe("a degenerate study is refused", () => {
  it("K = M: refused by the library, one line naming what to do instead", () => {
    let error: unknown;
    try {
      runRepetitions(census, options(M), 0, 3);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RagciError);
    const message = (error as Error).message;
    expect(message).toMatch(/K = M = 8 cannot miss: every sample is the census itself/);
    expect(message).toMatch(/give a census larger than the sample, or use the default/);
    expect(message.split("\n")).toHaveLength(1);
  });

  it("K = M: refused when a simulate table's columns are built", () => {
    const input = {
      columns: [5, M],
      repetitions: [3, 3],
      design: { kind: "srs" as const },
      replicates: 19,
      seed: 1,
      level: 0.95,
      fpc: false,
      chunkBootstrap: false,
      differences: false,
    };
    expect(() => studyColumns(census, input)).toThrow(/K = 8: a study at K = M = 8 cannot miss/);
  });

  it("K > M: refused as more than the census holds", () => {
    expect(() => refuseDegenerateStudy(9, M, "K = 9")).toThrow(
      /K = 9 is more than the census's 8 documents/,
    );
  });

  it("K = M − 1 runs, and its samples are not all the census", () => {
    const results = runRepetitions(census, options(M - 1), 0, 3);
    expect(results.to - results.from).toBe(3);
    // Three samples of 7 of 8 documents: their micro estimates differ from one another.
    expect(new Set(results.estimates.subarray(0, 3)).size).toBeGreaterThan(1);
  });
});

describe("a study too large to hold is refused", () => {
  it("more than MAX_STUDY_REPETITIONS repetitions: one line with the bound, before any work", () => {
    const many = { ...options(4), repetitions: MAX_STUDY_REPETITIONS + 1 };
    expect(() => runRepetitions(census, many, 0, 1)).toThrow(
      new RagciError(
        "invalid-option",
        "repetitions 1000001: give a whole number from 1 to 1,000,000",
      ),
    );
    expect(() => runRepetitions(census, { ...options(4), repetitions: 0 }, 0, 1)).toThrow(
      RagciError,
    );
  });
});
