/**
 * Small coverage studies replayed in numpy with the same streams
 * (test/fixtures/numpy/coverage_study.py → coverage_study.json; K = 5 and 12, 200 repetitions,
 * B = 99, seed 7, level 0.95): the first 200 documents of the synthetic 0/1 census, and a
 * census of scores in [0, 1] (score_census.csv) without and with the fpc. Every scored
 * interval's bounds agree per repetition to 1e-9 relative, the covered and unavailable counts
 * are equal, and so is every summary field. Also: a study split into pieces and joined is the
 * same bytes as one run, which is what makes any thread count give one answer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import {
  joinRepetitions,
  runRepetitions,
  STUDY_METHODS,
  type StudyMethod,
  type StudyOptions,
  studyMethods,
} from "../../../src/core/simulation/coverageStudy.js";
import { censusTruth, summarizeStudy } from "../../../src/core/simulation/studySummary.js";
import type { DocumentStats } from "../../../src/core/types.js";
import { isRelativelyClose } from "../../expectClose.js";

const root = join(import.meta.dirname, "../../..");

type Bound = [number, number] | null;
interface NumpyMethod {
  readonly bounds: readonly Bound[];
  readonly covered: number;
  readonly unavailableCount: number;
  readonly [field: string]: unknown;
}
interface NumpyCase {
  readonly name: string;
  readonly census: string;
  readonly documents: number | null;
  readonly k: number;
  readonly fpc: boolean;
  readonly populationSize: number;
  readonly truth: { readonly micro: number; readonly macro: number };
  readonly estimators: Record<"micro" | "macro", Record<"bias" | "sd" | "rmse", number>>;
  readonly methods: Record<string, NumpyMethod>;
}
const fixture = JSON.parse(
  readFileSync(join(root, "test/fixtures/numpy/coverage_study.json"), "utf8"),
) as {
  readonly seed: number;
  readonly reps: number;
  readonly replicates: number;
  readonly level: number;
  readonly methods: readonly string[];
  readonly cases: readonly NumpyCase[];
};

/** A census CSV (doc_id,n,s,ss[,min,max]) in code-point order of the ids, as ragci ingests it. */
function readCensus(file: string, limit: number | null): DocumentStats {
  const [header, ...lines] = readFileSync(join(root, file), "utf8").trim().split(/\r?\n/);
  const columns = (header as string).split(",");
  const rows = lines
    .map((line) => line.split(","))
    .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : a[0] === b[0] ? 0 : 1))
    .slice(0, limit ?? undefined);
  const column = (name: string) => rows.map((r) => Number(r[columns.indexOf(name)]));
  const ids = rows.map((r) => r[0] as string);
  if (!columns.includes("min")) return documentStats({ ids, n: column("n"), s: column("s") });
  return documentStats({
    ids,
    n: column("n"),
    s: column("s"),
    ss: column("ss"),
    binary: false,
    min: Math.min(...column("min")),
    max: Math.max(...column("max")),
  });
}

const censuses = new Map<string, DocumentStats>();
function censusOf(c: NumpyCase): DocumentStats {
  const key = `${c.census}:${c.documents}`;
  if (!censuses.has(key)) censuses.set(key, readCensus(c.census, c.documents));
  return censuses.get(key) as DocumentStats;
}

function options(k: number, fpc: boolean): StudyOptions {
  return {
    documents: k,
    repetitions: fixture.reps,
    replicates: fixture.replicates,
    seed: fixture.seed,
    level: fixture.level,
    fpc,
  };
}

const close = (a: number, b: number) => isRelativelyClose(a, b, 1e-9, 1e-6);

const SUMMARY_FIELDS = [
  "coverage",
  "coverageAvailable",
  "mcse",
  "meanWidth",
  "medianWidth",
  "unavailable",
  "zeroWidth",
  "missBelow",
  "missAbove",
  "outside01",
  "meanDf",
  "meanDegenerateFraction",
] as const;

describe("a coverage study equals its numpy replay", () => {
  it("the fixture scores the methods ragci scores by default (no chunk bootstrap)", () => {
    expect([...fixture.methods].sort()).toEqual(studyMethods({}).sort());
  });

  it.each(fixture.cases)("$name: bounds per repetition, counts and summary", (c) => {
    const census = censusOf(c);
    expect(census.n.length).toBe(c.populationSize);
    const truth = censusTruth(census);
    expect(close(truth.micro, c.truth.micro) && close(truth.macro, c.truth.macro)).toBe(true);
    const results = runRepetitions(census, options(c.k, c.fpc), 0, fixture.reps);
    const summary = summarizeStudy(census, options(c.k, c.fpc), results);
    const reps = fixture.reps;
    for (const [method, expected] of Object.entries(c.methods)) {
      const m = STUDY_METHODS.indexOf(method as StudyMethod);
      expect(m, method).toBeGreaterThanOrEqual(0);
      let covered = 0;
      let unavailable = 0;
      const target = truth[method.split("/")[0] as "micro" | "macro"];
      expected.bounds.forEach((interval, r) => {
        const lo = results.lower[m * reps + r] as number;
        const hi = results.upper[m * reps + r] as number;
        if (Number.isNaN(lo)) unavailable++;
        else if (lo <= target && target <= hi) covered++;
        if (interval === null) {
          expect(
            Number.isNaN(lo),
            `${method} rep ${r}: ragci ${lo}, ${hi}; numpy unavailable`,
          ).toBe(true);
          return;
        }
        expect(
          close(lo, interval[0]) && close(hi, interval[1]),
          `${method} rep ${r}: ragci ${lo}, ${hi} vs numpy ${interval}`,
        ).toBe(true);
      });
      expect(covered, `${method} covered`).toBe(expected.covered);
      expect(unavailable, `${method} unavailable`).toBe(expected.unavailableCount);
      const score = summary.methods[method as StudyMethod] as unknown as Record<string, unknown>;
      for (const field of SUMMARY_FIELDS) {
        const want = expected[field];
        const got = score[field];
        if (want === null || want === undefined) {
          expect(got ?? null, `${method} ${field}`).toBe(null);
        } else {
          expect(
            close(got as number, want as number),
            `${method} ${field}: ${got} vs ${want}`,
          ).toBe(true);
        }
      }
    }
    for (const estimand of ["micro", "macro"] as const)
      for (const field of ["bias", "sd", "rmse"] as const) {
        const got = summary.estimators[estimand][field];
        const want = c.estimators[estimand][field];
        expect(close(got, want), `${estimand} ${field}: ${got} vs ${want}`).toBe(true);
      }
  });
});

describe("a study split into pieces is the same study", () => {
  it.each(fixture.cases.filter((c) => c.k === 12))(
    "$name: 0..70, 70..130, 130..200 joined (in any order) equal one run, bit for bit",
    (c) => {
      const census = censusOf(c);
      const o = options(c.k, c.fpc);
      const whole = runRepetitions(census, o, 0, 200);
      const joined = joinRepetitions([
        runRepetitions(census, o, 130, 200),
        runRepetitions(census, o, 0, 70),
        runRepetitions(census, o, 70, 130),
      ]);
      expect([joined.from, joined.to]).toEqual([0, 200]);
      for (const field of ["lower", "upper", "df", "degenerate", "estimates"] as const)
        expect(
          Buffer.from(joined[field].buffer).equals(Buffer.from(whole[field].buffer)),
          field,
        ).toBe(true);
      expect(JSON.stringify(summarizeStudy(census, o, joined))).toBe(
        JSON.stringify(summarizeStudy(census, o, whole)),
      );
    },
  );
});
