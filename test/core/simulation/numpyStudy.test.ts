/**
 * A small coverage study replayed in numpy with the same streams
 * (test/fixtures/numpy/coverage_study.py, K = 5 and 12, 200 repetitions, B = 99, seed 7, on
 * the first 200 documents of the synthetic census): every interval's bounds agree per
 * repetition to 1e-9 and the coverage counts are equal. Also: a study split into pieces and
 * joined is the same bytes as one run, which is what makes any thread count give one answer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import {
  joinRepetitions,
  runRepetitions,
  STUDY_METHODS,
  type StudyOptions,
} from "../../../src/core/simulation/coverageStudy.js";
import { summarizeStudy } from "../../../src/core/simulation/studySummary.js";

const root = join(import.meta.dirname, "../../..");
const fixture = JSON.parse(
  readFileSync(join(root, "test/fixtures/numpy/coverage_study.json"), "utf8"),
) as {
  seed: number;
  reps: number;
  replicates: number;
  level: number;
  truth: { micro: number; macro: number };
  studies: {
    k: number;
    bounds: Record<string, ([number, number] | null)[]>;
    covered: Record<string, number>;
  }[];
};

const rows = readFileSync(join(root, "examples/synthetic-census.csv"), "utf8")
  .trim()
  .split(/\r?\n/)
  .slice(1, 201)
  .map((line) => line.split(","));
const census = documentStats({
  ids: rows.map((r) => r[0] as string),
  n: rows.map((r) => Number(r[1])),
  s: rows.map((r) => Number(r[2])),
});

function options(k: number): StudyOptions {
  return {
    documents: k,
    repetitions: fixture.reps,
    replicates: fixture.replicates,
    seed: fixture.seed,
    level: fixture.level,
    fpc: false,
  };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

describe("a coverage study equals its numpy replay", () => {
  it.each(fixture.studies)(
    "K = $k: bounds per repetition and coverage counts",
    ({ k, bounds, covered }) => {
      const results = runRepetitions(census, options(k), 0, fixture.reps);
      const summary = summarizeStudy(census, options(k), results);
      for (const [method, expected] of Object.entries(bounds)) {
        const m = STUDY_METHODS.indexOf(method as (typeof STUDY_METHODS)[number]);
        expect(m).toBeGreaterThanOrEqual(0);
        expected.forEach((interval, r) => {
          const lo = results.lower[m * fixture.reps + r] as number;
          const hi = results.upper[m * fixture.reps + r] as number;
          if (interval === null) {
            expect(Number.isNaN(lo), `${method} rep ${r} should be unavailable`).toBe(true);
            return;
          }
          expect(
            close(lo, interval[0]) && close(hi, interval[1]),
            `${method} rep ${r}: ${lo}, ${hi} vs ${interval}`,
          ).toBe(true);
        });
        const score = summary.methods[method as (typeof STUDY_METHODS)[number]];
        expect(Math.round((score?.coverage ?? 0) * fixture.reps), method).toBe(covered[method]);
      }
    },
  );

  it("the census values are numpy's", () => {
    const truth = summarizeStudy(
      census,
      options(5),
      runRepetitions(census, { ...options(5), repetitions: 1 }, 0, 1),
    );
    expect(truth.reps).toBe(1);
    expect(
      close(
        census.s.reduce((a, b) => a + b, 0) / census.n.reduce((a, b) => a + b, 0),
        fixture.truth.micro,
      ),
    ).toBe(true);
  });
});

describe("a study split into pieces is the same study", () => {
  it("0..70, 70..130, 130..200 joined in any order equal one run, bit for bit", () => {
    const whole = runRepetitions(census, options(12), 0, 200);
    const parts = [
      runRepetitions(census, options(12), 130, 200),
      runRepetitions(census, options(12), 0, 70),
      runRepetitions(census, options(12), 70, 130),
    ];
    const joined = joinRepetitions(parts);
    for (const field of ["lower", "upper", "df", "degenerate", "estimates"] as const)
      expect(Buffer.from(joined[field].buffer).equals(Buffer.from(whole[field].buffer))).toBe(true);
    expect(JSON.stringify(summarizeStudy(census, options(12), joined))).toBe(
      JSON.stringify(summarizeStudy(census, options(12), whole)),
    );
  });
});
