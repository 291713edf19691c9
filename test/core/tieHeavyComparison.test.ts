/**
 * compare on a tie-heavy sample: the first 20 documents of examples/covidqa-retrieval.csv
 * (tfidf − bm25, hit@5; 11 of the 20 documents tied). The macro difference is recommended as
 * t-differing, t with ν = D − 1 (D the documents that differ, recounted here from the raw rows);
 * its test is what the gate decides on, and a margin between t's and t-differing's bounds
 * shows the gate's verdict changing with ν. The census study of the differences scores it and
 * keeps it as the default.
 */
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { type Comparison, compareSystems, withCensusStudy } from "../../src/core/compare.js";
import type { MetricComparisons } from "../../src/core/compareMetric.js";
import { FEWEST_DIFFERING_DOCUMENTS } from "../../src/core/diagnostics/differingDocuments.js";
import { decideGate, type GateOptions } from "../../src/core/gate.js";
import { PAIRED_STUDY_COVERAGE } from "../../src/core/pairedStudyCoverage.js";
import { runRepetitions, type StudyOptions } from "../../src/core/simulation/coverageStudy.js";
import { summarizeStudy } from "../../src/core/simulation/studySummary.js";
import type { AvailableInterval } from "../../src/core/types.js";
import { readCovidqa } from "../support/covidqaGatePairs.js";

const { rows } = readCovidqa();
const documentOrder = [...new Set(rows.map((r) => r.doc_id as string))];

/** Per-document sums of bm25, tfidf and tfidf − bm25 on hit5 over the given documents. */
function pairOf(documents: readonly string[]) {
  const keep = new Set(documents);
  const byQuery = new Map<string, { doc: string; bm25?: number; tfidf?: number }>();
  for (const r of rows) {
    if (!keep.has(r.doc_id as string)) continue;
    const q = byQuery.get(r.query_id as string) ?? { doc: r.doc_id as string };
    q[r.system as "bm25" | "tfidf"] = Number(r.hit5);
    byQuery.set(r.query_id as string, q);
  }
  const docs = new Map<string, { n: number; a: number; b: number; d: number; dd: number }>();
  for (const q of byQuery.values()) {
    const a = q.bm25 as number;
    const b = q.tfidf as number;
    const x = docs.get(q.doc) ?? { n: 0, a: 0, b: 0, d: 0, dd: 0 };
    docs.set(q.doc, {
      n: x.n + 1,
      a: x.a + a,
      b: x.b + b,
      d: x.d + b - a,
      dd: x.dd + (b - a) ** 2,
    });
  }
  const ids = [...docs.keys()];
  const v = [...docs.values()];
  const n = v.map((x) => x.n);
  return {
    a: documentStats({ ids, n, s: v.map((x) => x.a) }),
    b: documentStats({ ids, n, s: v.map((x) => x.b) }),
    difference: documentStats({
      ids,
      n,
      s: v.map((x) => x.d),
      ss: v.map((x) => x.dd),
      binary: false,
    }),
    /** Mean per-query difference of each document, and the documents whose sum is not 0. */
    rates: v.map((x) => x.d / x.n),
    differing: v.filter((x) => x.d !== 0).length,
  };
}

function compared(documents: readonly string[], population?: number): Comparison {
  const p = pairOf(documents);
  return compareSystems(
    {
      a: { name: "bm25", stats: p.a },
      b: { name: "tfidf", stats: p.b },
      difference: p.difference,
      queriesDiffering: null,
    },
    { replicates: 0, ...(population === undefined ? {} : { population }) },
  );
}

const metricComparisons = (c: Comparison): MetricComparisons => ({
  metric: "hit5",
  comparisons: [c],
  holm: [{}],
  groups: {},
});

/**
 * The comparison with its macro test recomputed on macro t (ν = K − 1) instead, as if t were
 * recommended (so not withheld either).
 */
function withPlainT(c: Comparison): Comparison {
  const t = c.difference.macro?.intervals.t as AvailableInterval;
  const test = c.tests.macro as NonNullable<Comparison["tests"]["macro"]>;
  const { recommendationWithheld: _, ...macro } = c.difference.macro as NonNullable<
    Comparison["difference"]["macro"]
  >;
  return {
    ...c,
    difference: { ...c.difference, macro },
    tests: {
      ...c.tests,
      macro: { ...test, method: "t", lower: t.lower, upper: t.upper, df: t.df as number },
    },
  };
}

const gate = (options: Partial<GateOptions>): GateOptions => ({
  rule: "fail-if-worse",
  margin: 0,
  estimand: "macro",
  baseline: "bm25",
  ...options,
});

const sample = documentOrder.slice(0, 20);
const raw = pairOf(sample);

describe("compare on a tie-heavy 20-document COVID-QA sample", () => {
  const c = compared(sample);
  const macro = c.difference.macro;
  const t = macro?.intervals.t as AvailableInterval;

  it(`is tie-heavy: D = ${raw.differing} of 20 documents differ`, () => {
    expect(raw.rates).toHaveLength(20);
    expect(raw.differing).toBeLessThan(12);
    expect(raw.differing).toBeGreaterThanOrEqual(8); // no few-differing-documents warning
    expect(c.difference.advice.map((a) => a.code)).not.toContain("few-differing-documents");
  });

  it("recommends t-differing for the macro difference, ν = D − 1, se of t, bounds from t(D − 1)", () => {
    expect(macro?.recommended).toBe("t-differing");
    const interval = macro?.intervals["t-differing"] as AvailableInterval;
    const mean = raw.rates.reduce((x, y) => x + y, 0) / 20;
    const sd = Math.sqrt(raw.rates.reduce((x, r) => x + (r - mean) ** 2, 0) / 19);
    const se = sd / Math.sqrt(20);
    const q = tQuantile(0.975, raw.differing - 1);
    expect(interval.df).toBe(raw.differing - 1);
    expect(interval.se).toBeCloseTo(se, 14);
    expect(interval.lower).toBeCloseTo(mean - q * se, 12);
    expect(interval.upper).toBeCloseTo(mean + q * se, 12);
    // Same se as t; only ν differs, so it is wider.
    expect(t.se).toBe(interval.se);
    expect(t.df).toBe(19);
    expect(interval.upper - interval.lower).toBeGreaterThan(t.upper - t.lower);
  });

  it("the test of no difference (what the gate decides on) is t-differing's, with ν = D − 1", () => {
    expect(c.tests.macro?.method).toBe("t-differing");
    expect(c.tests.macro?.df).toBe(raw.differing - 1);
    expect(c.tests.micro?.method).toBe("cr2");
  });

  it("with the fpc (M = 98): the se shrinks by √(1 − 20/98), ν stays D − 1", () => {
    const f = compared(sample, 98);
    const interval = f.difference.macro?.intervals["t-differing"] as AvailableInterval;
    expect(f.difference.macro?.recommended).toBe("t-differing");
    expect(interval.df).toBe(raw.differing - 1);
    const unscaled = macro?.intervals["t-differing"] as AvailableInterval;
    expect((interval.se as number) / (unscaled.se as number)).toBeCloseTo(
      Math.sqrt(1 - 20 / 98),
      14,
    );
  });

  it("advice quotes the paired studies at K = 20 for t-differing and cr2", () => {
    const note = c.difference.advice.find((a) => a.code === "paired-studies");
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    expect(note?.message).toContain(
      `${pct(PAIRED_STUDY_COVERAGE["k20-lowest/macro/t-differing"])}–${pct(PAIRED_STUDY_COVERAGE["k20-highest/macro/t-differing"])} (macro t-differing`,
    );
    expect(note?.message).toContain(
      `${pct(PAIRED_STUDY_COVERAGE["k20-lowest/micro/cr2"])}–${pct(PAIRED_STUDY_COVERAGE["k20-highest/micro/cr2"])} of 95% (micro cr2)`,
    );
    // The interval named where logit is unavailable is the one shown, named as the paired
    // studies' choice for a difference, not as a fallback.
    const unavailable = c.difference.advice.filter(
      (a) => a.code === "bounded-interval-unavailable",
    );
    expect(unavailable.find((a) => a.message.startsWith("macro"))?.message).toBe(
      "macro: a paired difference is not a proportion, so logit (ragci's interval for metrics in [0, 1]) does not apply; t-differing is the interval ragci's paired studies support for a difference.",
    );
    expect(unavailable.find((a) => a.message.startsWith("micro"))?.message).toMatch(
      /does not apply; cr2 is the interval ragci's paired studies support for a difference\.$/,
    );
    for (const a of unavailable) expect(a.message).not.toContain("shown instead");
  });

  it("--require-noninferior: a margin between t's and t-differing's lower bounds flips the verdict", () => {
    const td = macro?.intervals["t-differing"] as AvailableInterval;
    expect(td.lower).toBeLessThan(t.lower);
    const margin = -(t.lower + td.lower) / 2;
    const options = gate({ rule: "noninferior", margin });
    const shipped = decideGate([metricComparisons(c)], 0.95, options);
    const plain = decideGate([metricComparisons(withPlainT(c))], 0.95, options);
    expect(shipped.checks[0]?.test?.method).toBe("t-differing");
    expect(shipped.checks[0]?.verdict).toBe("not-noninferior");
    expect(shipped.failed).toBe(true);
    expect(plain.checks[0]?.verdict).toBe("noninferior");
    expect(plain.failed).toBe(false);
  });

  it("--fail-if-worse: where t's interval excludes 0 and D < 8, t would fail; ragci says inconclusive", () => {
    // Documents 21–40 of the file: t (ν = 19) lies below 0, t-differing (ν = D − 1) does not.
    const other = compared(documentOrder.slice(20, 40));
    const t = other.difference.macro?.intervals.t as AvailableInterval;
    const td = other.difference.macro?.intervals["t-differing"] as AvailableInterval;
    expect(t.upper).toBeLessThan(0);
    expect(td.upper).toBeGreaterThan(0);
    expect(other.tests.macro?.df).toBe(pairOf(documentOrder.slice(20, 40)).differing - 1);
    const shipped = decideGate([metricComparisons(other)], 0.95, gate({}));
    const plain = decideGate([metricComparisons(withPlainT(other))], 0.95, gate({}));
    // Fewer than 8 documents differ: no interval is recommended, so no verdict (and no failure).
    expect(pairOf(documentOrder.slice(20, 40)).differing).toBeLessThan(FEWEST_DIFFERING_DOCUMENTS);
    expect(shipped.checks[0]?.verdict).toBe("inconclusive");
    expect(shipped.failed).toBe(false);
    expect(plain.checks[0]?.verdict).toBe("worse");
  });
});

describe("edge cases of t-differing", () => {
  const stats = (s: readonly number[]) =>
    documentStats({
      ids: s.map((_, d) => `d${d}`),
      n: s.map(() => 2),
      s,
      ss: s.map((x) => Math.abs(x)),
      binary: false,
    });
  const run = (s: readonly number[]) =>
    compareSystems(
      {
        a: {
          name: "a",
          stats: documentStats({
            ids: s.map((_, d) => `d${d}`),
            n: s.map(() => 2),
            s: s.map(() => 1),
          }),
        },
        b: {
          name: "b",
          stats: documentStats({
            ids: s.map((_, d) => `d${d}`),
            n: s.map(() => 2),
            s: s.map((x) => 1 + x),
          }),
        },
        difference: stats(s),
        queriesDiffering: null,
      },
      { replicates: 0 },
    ).difference.macro as NonNullable<Comparison["difference"]["macro"]>;

  it("without ties it is t: ν = K − 1 and the same bounds", () => {
    const m = run([1, -1, 1, 1, -1, 1]);
    expect(m.intervals["t-differing"]).toEqual(m.intervals.t);
  });

  it("K = 2 with both documents differing: ν = 1 = K − 1", () => {
    const m = run([1, -1]);
    expect(m.intervals["t-differing"]).toEqual(m.intervals.t);
    expect((m.intervals["t-differing"] as AvailableInterval).df).toBe(1);
  });

  it("D = 1: ν = 1, the widest t, never 0", () => {
    const m = run([1, 0, 0, 0, 0]);
    expect((m.intervals["t-differing"] as AvailableInterval).df).toBe(1);
    expect((m.intervals.t as AvailableInterval).df).toBe(4);
  });

  it("every document tied: se 0, the point interval [0, 0] (as t), and the zero-error advice", () => {
    const c = compareSystems(
      {
        a: {
          name: "a",
          stats: documentStats({ ids: ["d0", "d1", "d2"], n: [2, 2, 2], s: [1, 1, 1] }),
        },
        b: {
          name: "b",
          stats: documentStats({ ids: ["d0", "d1", "d2"], n: [2, 2, 2], s: [1, 1, 1] }),
        },
        difference: stats([0, 0, 0]),
        queriesDiffering: null,
      },
      { replicates: 0 },
    );
    const interval = c.difference.macro?.intervals["t-differing"] as AvailableInterval;
    expect([interval.lower, interval.upper, interval.se]).toEqual([0, 0, 0]);
    expect(c.tests.macro?.p).toBeNull();
    expect(c.difference.advice.map((a) => a.code)).toContain("zero-standard-error");
  });
});

describe("a census study of the differences (compare --census)", () => {
  it("scores macro t-differing and keeps it as the default where it reaches the level", () => {
    const census = pairOf(documentOrder).difference;
    const options: StudyOptions = {
      documents: 20,
      repetitions: 400,
      replicates: 0,
      seed: 1,
      level: 0.95,
      fpc: true,
      differences: true,
    };
    const study = summarizeStudy(census, options, runRepetitions(census, options, 0, 400));
    const scored = study.methods["macro/t-differing"];
    expect(scored).toBeDefined();
    expect(study.methods["macro/t"]).toBeDefined();
    const c = withCensusStudy(compared(sample, 98), study, "covidqa");
    const threshold = 0.95 - Math.max(0.01, 2 * Math.sqrt((0.95 * 0.05) / 400));
    expect(scored?.coverage).toBeGreaterThanOrEqual(threshold);
    expect(c.difference.macro?.recommended).toBe("t-differing");
    expect(c.tests.macro?.method).toBe("t-differing");
  });

  it("a single system's study does not score t-differing", () => {
    const census = pairOf(documentOrder).a;
    const options: StudyOptions = {
      documents: 20,
      repetitions: 20,
      replicates: 0,
      seed: 1,
      level: 0.95,
      fpc: true,
    };
    const study = summarizeStudy(census, options, runRepetitions(census, options, 0, 20));
    expect(Object.keys(study.methods)).not.toContain("macro/t-differing");
    expect(Object.keys(study.methods)).toContain("macro/t");
  });
});
