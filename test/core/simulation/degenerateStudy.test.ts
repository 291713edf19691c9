/**
 * A coverage study at K = M cannot miss (every sample is the census): the library refuses it
 * in one line that says what to do instead, and runs at K = M − 1, where samples differ.
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { RagciError } from "../../../src/core/errors.js";
import { runRepetitions, type StudyOptions } from "../../../src/core/simulation/coverageStudy.js";
import {
  refuseConstantCensus,
  refuseDegenerateStudy,
} from "../../../src/core/simulation/degenerateStudy.js";
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

describe("a census whose documents all have one rate is refused", () => {
  // Hand-written: sizes 2, 4, 6, 8 at rate 1/2, so every sample's micro (Σs/Σn) and macro
  // (mean s/n) are 1/2, the census value; the runs below show every interval covering.
  const flat = documentStats({ ids: ["a", "b", "c", "d"], n: [2, 4, 6, 8], s: [1, 2, 3, 4] });

  it("every interval of every sample covers: the study cannot miss", () => {
    const run = runRepetitions(
      flat,
      { documents: 2, repetitions: 6, replicates: 19, seed: 1, level: 0.95, fpc: false },
      0,
      6,
    );
    let available = 0;
    for (let i = 0; i < run.lower.length; i++) {
      const [lower, upper] = [run.lower[i] as number, run.upper[i] as number];
      if (!(Number.isFinite(lower) && Number.isFinite(upper))) continue;
      available++;
      expect(lower).toBeLessThanOrEqual(0.5 + 1e-12);
      expect(upper).toBeGreaterThanOrEqual(0.5 - 1e-12);
    }
    expect(available).toBeGreaterThan(0);
    for (const estimate of run.estimates) expect(estimate).toBeCloseTo(0.5, 12);
  });

  it("refuses it in one line, for a system and for a pair, and lets one differing document pass", () => {
    expect(() => refuseConstantCensus(flat, "census.csv", null)).toThrow(
      /^census\.csv: every document has the same rate \(0\.5\), so every sample's estimate is the census value and no interval can miss: a coverage study cannot tell the intervals apart; use the default recommendation \(micro logit-cv3, macro logit\)$/,
    );
    const zero = { n: [3, 5, 2], s: [0, 0, 0] };
    expect(() => refuseConstantCensus(zero, "pair.csv", { a: "bm25", b: "copy" })).toThrow(
      /^pair\.csv: every document's mean difference copy − bm25 is 0, .* \(compare's: micro cr2, macro t-differing\)$/,
    );
    expect(() => refuseConstantCensus({ n: [3, 5, 2], s: [0, 0, 1] }, "x.csv", null)).not.toThrow();
    expect(() => refuseConstantCensus(census, "x.csv", null)).not.toThrow();
  });
});
