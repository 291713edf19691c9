/**
 * cv3Variance (and, in the R/numpy cross-checks, cv3DegreesOfFreedom and the 95% logit-cv3
 * interval): against a literal leave-one-out loop, exact rational arithmetic, R's clubSandwich
 * (one Rscript run, test/core/variance/cv3.R) and the numpy/scipy fixture
 * test/fixtures/numpy/cv3.json (from test/fixtures/numpy/cv3.py).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { logitCv3Interval } from "../../../src/core/intervals/logitCv3Interval.js";
import type { DocumentStats } from "../../../src/core/types.js";
import { cr2 } from "../../../src/core/variance/cr2.js";
import { cv3Variance } from "../../../src/core/variance/cv3.js";
import { cv3DegreesOfFreedom } from "../../../src/core/variance/cv3DegreesOfFreedom.js";
import { expectRelativelyClose } from "../../expectClose.js";
import { rscriptOnce } from "../../r-crosscheck/runRscript.js";
import { mulberry32 } from "../../support/mulberry32.js";
import { exactCv3Variance } from "./cv3Exact.js";

const REL = 1e-9;

const expectRelative = (actual: number, expected: number, label: string) =>
  expectRelativelyClose(actual, expected, { rel: REL, label });

const statsOf = (n: readonly number[], s: readonly number[], binary = true): DocumentStats =>
  documentStats({
    ids: n.map((_, d) => `d${d}`),
    n,
    s,
    ...(binary ? {} : { ss: s.map((x, d) => (x * x) / (n[d] as number)), binary: false }),
  });

/** V₃ by definition: each R₍d₎ summed afresh from the other K − 1 documents, O(K²). */
function bruteForceCv3(n: readonly number[], s: readonly number[]): number {
  const k = n.length;
  const ratio = s.reduce((a, b) => a + b, 0) / n.reduce((a, b) => a + b, 0);
  let sum = 0;
  for (let d = 0; d < k; d++) {
    let sd = 0;
    let nd = 0;
    for (let j = 0; j < k; j++) {
      if (j === d) continue;
      sd += s[j] as number;
      nd += n[j] as number;
    }
    sum += (sd / nd - ratio) ** 2;
  }
  return ((k - 1) / k) * sum;
}

/** Documents with sizes 1..maxSize and binary sums s_d ≤ n_d, not all rates equal. */
const binaryDocuments = (maxK: number, maxSize: number) =>
  fc
    .array(
      fc
        .integer({ min: 1, max: maxSize })
        .chain((n) => fc.record({ n: fc.constant(n), s: fc.integer({ min: 0, max: n }) })),
      { minLength: 2, maxLength: maxK },
    )
    .filter((docs) => docs.some((x) => x.s * (docs[0]?.n ?? 0) !== (docs[0]?.s ?? 0) * x.n));

describe("cv3Variance", () => {
  const k5 = statsOf([3, 9, 14, 26, 58], [1, 5, 10, 11, 19]);

  it("cv3Variance(k5_binary) is 0.009786689989751178 (exact rational arithmetic)", () => {
    const exact = exactCv3Variance([3, 9, 14, 26, 58], [1, 5, 10, 11, 19]);
    expectRelative(exact, 0.009786689989751178, "exact");
    expectRelative(cv3Variance(k5), exact, "cv3Variance");
  });

  it("equals the literal leave-one-out loop on random binary data", () => {
    fc.assert(
      fc.property(binaryDocuments(40, 500), (docs) => {
        const n = docs.map((x) => x.n);
        const s = docs.map((x) => x.s);
        expectRelative(cv3Variance(statsOf(n, s)), bruteForceCv3(n, s), "brute force");
      }),
      { numRuns: 300 },
    );
  });

  it("equals the literal leave-one-out loop on non-binary scores", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 200 }),
            rate: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          { minLength: 2, maxLength: 30 },
        ),
        (docs) => {
          const n = docs.map((x) => x.n);
          const s = docs.map((x) => x.n * x.rate);
          const brute = bruteForceCv3(n, s);
          fc.pre(brute > 1e-12);
          expectRelative(cv3Variance(statsOf(n, s, false)), brute, "brute force");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("matches exact rational arithmetic when one document holds almost every result (h_d → 1)", () => {
    for (const [n, s] of [
      [
        [1e9, 1, 1],
        [5e8, 1, 0],
      ],
      [
        [1e12, 3, 5, 7],
        [1e11, 3, 0, 2],
      ],
      [
        [2 ** 40, 1, 1, 1, 1, 1],
        [2 ** 39, 1, 0, 1, 0, 1],
      ],
    ] as const) {
      const exact = exactCv3Variance(n, s);
      const actual = cv3Variance(statsOf(n, s));
      expectRelative(actual, exact, `n = ${n}`);
      expect(Number.isFinite(actual) && actual > 0).toBe(true);
    }
  });

  it("is invariant under permutation of the documents", () => {
    fc.assert(
      fc.property(
        binaryDocuments(25, 300).chain((docs) =>
          fc.tuple(fc.constant(docs), fc.shuffledSubarray(docs, { minLength: docs.length })),
        ),
        ([docs, shuffled]) => {
          const a = cv3Variance(
            statsOf(
              docs.map((x) => x.n),
              docs.map((x) => x.s),
            ),
          );
          const b = cv3Variance(
            statsOf(
              shuffled.map((x) => x.n),
              shuffled.map((x) => x.s),
            ),
          );
          expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-13 * a);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("K/(K−1)·V₃ (clubSandwich's CR3) is at least the CR2 variance: 1/(1 − h)² ≥ 1/(1 − h)", () => {
    fc.assert(
      fc.property(binaryDocuments(30, 300), (docs) => {
        const stats = statsOf(
          docs.map((x) => x.n),
          docs.map((x) => x.s),
        );
        const k = docs.length;
        expect((k / (k - 1)) * cv3Variance(stats)).toBeGreaterThanOrEqual(
          cr2(stats).se ** 2 * (1 - 1e-12),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("K = 2: V₃ = ((r₁ − R)² + (r₂ − R)²)/2, each R₍d₎ being the other document's rate", () => {
    const n = [4, 17];
    const s = [1, 12];
    const ratio = 13 / 21;
    expectRelative(
      cv3Variance(statsOf(n, s)),
      ((1 / 4 - ratio) ** 2 + (12 / 17 - ratio) ** 2) / 2,
      "K=2",
    );
  });

  it("is exactly 0 when every document has the same rate (all zeros, all ones, 1/3 = 2/6, a score)", () => {
    expect(cv3Variance(statsOf([3, 5, 8], [0, 0, 0]))).toBe(0);
    expect(cv3Variance(statsOf([3, 5, 8], [3, 5, 8]))).toBe(0);
    expect(cv3Variance(statsOf([3, 6, 9, 300], [1, 2, 3, 100]))).toBe(0);
    expect(cv3Variance(statsOf([10, 20, 70], [3.7, 7.4, 25.9], false))).toBe(0);
  });

  it("rates 0 and 1 per document give a positive, finite V₃", () => {
    const n = [5, 7, 2, 11];
    const s = [0, 7, 0, 11];
    expectRelative(cv3Variance(statsOf(n, s)), exactCv3Variance(n, s), "0/1 rates");
  });

  it("throws single-document-holds-all when the other documents vanish in N (h_d = 1 in floating point)", () => {
    // 2⁵³ + 1 rounds to 2⁵³, so N − n_big = 0 and R₍big₎ = 1/0.
    const stats = statsOf([2 ** 53, 1], [2 ** 52, 1]);
    expect(() => cv3Variance(stats)).toThrowError(
      expect.objectContaining({
        code: "single-document-holds-all",
        context: { document: "d0" },
      }) as unknown as Error,
    );
    expect(() => cv3DegreesOfFreedom(stats)).toThrowError(
      expect.objectContaining({ code: "single-document-holds-all" }) as unknown as Error,
    );
  });

  it("throws too-few-documents for K = 1", () => {
    expect(() => cv3Variance(statsOf([4], [1]))).toThrowError(
      expect.objectContaining({ code: "too-few-documents" }) as unknown as Error,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// numpy/scipy fixture.

interface NumpyCase {
  readonly name: string;
  readonly n: number[];
  readonly s: number[];
  readonly V3: number;
  readonly nu3: number;
}
const fixture = JSON.parse(
  readFileSync(new URL("../../fixtures/numpy/cv3.json", import.meta.url), "utf8"),
) as { cases: NumpyCase[] };

describe("cv3 against numpy/scipy (test/fixtures/numpy/cv3.json)", () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))("%s: V₃ and ν₃", (_, c) => {
    const binary = c.s.every(Number.isInteger);
    const stats = statsOf(c.n, c.s, binary);
    expectRelative(cv3Variance(stats), c.V3, "V3");
    expectRelative(cv3DegreesOfFreedom(stats), c.nu3, "nu3");
  });
});

// ---------------------------------------------------------------------------------------------
// R clubSandwich.

interface RDataSet {
  readonly index: number;
  readonly n: number[];
  readonly s: number[];
  readonly binary: boolean;
  readonly population: number | null;
}

function rDataSets(): RDataSet[] {
  const rand = mulberry32(20240611);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const sets: RDataSet[] = [
    { index: 0, n: [3, 9, 14, 26, 58], s: [1, 5, 10, 11, 19], binary: true, population: null },
    { index: 1, n: [4, 17], s: [1, 12], binary: true, population: null },
    { index: 2, n: [10, 10, 10, 10, 10, 10], s: [2, 5, 3, 7, 4, 6], binary: true, population: 20 },
    { index: 3, n: [600, 3, 5, 2], s: [240, 2, 1, 2], binary: true, population: null },
    { index: 4, n: [1e6, 3, 5, 2], s: [4e5, 2, 1, 2], binary: false, population: null },
  ];
  for (let index = 5; index < 17; index++) {
    const k = index % 4 === 0 ? 2 : int(3, 40);
    const n = Array.from({ length: k }, () => (rand() < 0.15 ? int(40, 150) : int(1, 25)));
    const p = rand() * 0.8 + 0.1;
    const scores = index % 3 === 0;
    const s = n.map((nd) => {
      let sum = 0;
      for (let j = 0; j < nd; j++) sum += scores ? Math.round(rand() * 8) / 8 : rand() < p ? 1 : 0;
      return sum;
    });
    if (s.every((x, d) => x * (n[0] as number) === (s[0] as number) * (n[d] as number))) s[0] = 0;
    sets.push({
      index,
      n,
      s,
      binary: !scores,
      population: index % 2 === 0 ? k + 1 + int(0, 3 * k) : null,
    });
  }
  return sets;
}

const dataSets = rDataSets();
const rscript = rscriptOnce(
  {
    script: fileURLToPath(new URL("./cv3.R", import.meta.url)),
    packages: "clubSandwich and jsonlite",
    name: "ragci-cv3",
    timeoutMs: 110_000,
  },
  () => ({ datasets: dataSets }),
);

describe('cv3 against R clubSandwich (vcovCR type = "CR3", coef_test Satterthwaite)', () => {
  it.each(dataSets.map((ds) => [ds.index, ds] as const))("data set %i", (_, ds) => {
    const r = rscript.run().values.get(String(ds.index));
    if (!r) throw new Error(`R returned nothing for data set ${ds.index}`);
    const get = (name: string) => {
      const value = r.get(name);
      if (value === undefined) throw new Error(`R did not emit ${name}`);
      return value;
    };
    const stats = statsOf(ds.n, ds.s, ds.binary);
    const k = ds.n.length;
    // clubSandwich's CR3 has no jackknife factor: V₃ = (K−1)/K · CR3.
    expectRelative(cv3Variance(stats), ((k - 1) / k) * get("club.cr3.vcov"), "V3 vs CR3");
    // ν₃ is its Satterthwaite df under Var(r_d) ∝ 1/n_d (target = 1/n), i.e. independent results.
    expectRelative(cv3DegreesOfFreedom(stats), get("club.cr3.df"), "nu3 vs df_Satt");
    if (ds.binary && ds.n.every((x) => x <= 1000)) {
      // The query-level intercept model gives the same CR3 and df with its default target.
      expectRelative(get("query.cr3.vcov"), get("club.cr3.vcov"), "query vs document level");
      expectRelative(get("query.cr3.df"), get("club.cr3.df"), "query vs document level df");
    }
    const interval = logitCv3Interval(stats, 0.95, true, ds.population);
    if (!interval.available) throw new Error(interval.reason);
    expectRelative(interval.lower, get("logit.lower"), "lower");
    expectRelative(interval.upper, get("logit.upper"), "upper");
  });
});
