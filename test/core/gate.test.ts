import tCdf from "@stdlib/stats-base-dists-t-cdf";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { compareMetric, type MetricComparisons } from "../../src/core/compareMetric.js";
import { isRagciError } from "../../src/core/errors.js";
import { decideGate, type GateOptions } from "../../src/core/gate.js";
import { flippedCopy, type Row, readCovidqa, systemRows } from "../support/covidqaGatePairs.js";

const { rows } = readCovidqa();
const bm25 = systemRows(rows, "bm25");
const tfidf = systemRows(rows, "tfidf");
// Within noise on hit5 and rr: examples/ci/pr.csv's change (every 150th row from 7; a miss to rank 2).
const noisy = flippedCopy(bm25, 150, 7, 2);
// The same rows changed, a miss moving to rank 5 only: rr loses a little more, hit5 the same.
const rrWorse = flippedCopy(bm25, 150, 7, 5);

/** compare's results (baseline mode) for candidate − baseline on each metric, from the rows. */
function compared(base: readonly Row[], candidate: readonly Row[], metrics: readonly string[]) {
  const other = new Map(candidate.map((r) => [r.query_id, r]));
  return metrics.map((metric): MetricComparisons => {
    const docs = new Map<string, { n: number; a: number; b: number; d: number; dd: number }>();
    for (const r of base) {
      const c = other.get(r.query_id) as Row;
      const a = Number(r[metric]);
      const b = Number(c[metric]);
      const doc = docs.get(r.doc_id as string) ?? { n: 0, a: 0, b: 0, d: 0, dd: 0 };
      docs.set(r.doc_id as string, {
        n: doc.n + 1,
        a: doc.a + a,
        b: doc.b + b,
        d: doc.d + (b - a),
        dd: doc.dd + (b - a) ** 2,
      });
    }
    const ids = [...docs.keys()];
    const v = [...docs.values()];
    const binary = metric !== "rr";
    const sq = (key: "a" | "b") =>
      binary ? {} : { ss: ids.map((id) => sumSquares(base, candidate, id, metric, key)) };
    const system = (name: string, key: "a" | "b") => ({
      system: name,
      metric,
      stats: documentStats({
        ids,
        n: v.map((x) => x.n),
        s: v.map((x) => x[key]),
        ...sq(key),
        binary,
      }),
    });
    return compareMetric(
      metric,
      {
        perSystem: [system("base", "a"), system("cand", "b")],
        differences: [
          {
            a: "base",
            b: "cand",
            metric,
            stats: documentStats({
              ids,
              n: v.map((x) => x.n),
              s: v.map((x) => x.d),
              ss: v.map((x) => x.dd),
              binary: false,
            }),
            queriesDiffering: null,
          },
        ],
      },
      { mode: "baseline", level: 0.95, analysis: { replicates: 0 } },
    );
  });
}

function sumSquares(
  base: readonly Row[],
  candidate: readonly Row[],
  doc: string,
  metric: string,
  key: "a" | "b",
): number {
  const from = key === "a" ? base : candidate;
  return from.filter((r) => r.doc_id === doc).reduce((t, r) => t + Number(r[metric]) ** 2, 0);
}

const gate = (options: Partial<GateOptions>): GateOptions => ({
  rule: "fail-if-worse",
  margin: 0,
  estimand: "micro",
  baseline: "base",
  ...options,
});

/** The micro difference recomputed from the raw rows: Σ(candidate − baseline) / N. */
function microDifference(base: readonly Row[], candidate: readonly Row[], metric: string) {
  const sum = (rs: readonly Row[]) => rs.reduce((t, r) => t + Number(r[metric]), 0);
  return (sum(candidate) - sum(base)) / base.length;
}

describe("decideGate on the COVID-QA pair (tfidf − bm25, clearly negative)", () => {
  const results = compared(bm25, tfidf, ["hit5", "rr"]);
  const hit5 = results[0] as MetricComparisons;
  const test = hit5.comparisons[0]?.tests.micro;

  it("gates the recommended interval of candidate − baseline, whose estimate is the raw rows'", () => {
    expect(test?.estimate).toBeCloseTo(microDifference(bm25, tfidf, "hit5"), 12);
    expect(test?.estimate).toBeCloseTo((952 - 1009) / 1380, 12);
    expect(test?.method).toBe("cr2");
    expect(test?.upper).toBeLessThan(0);
  });

  it("--fail-if-worse fails exactly when the interval lies entirely below −d (one metric)", () => {
    const upper = test?.upper as number;
    expect(decideGate([hit5], 0.95, gate({})).failed).toBe(true);
    // Margins on either side of −upper (0.0273): the decision flips there and nowhere else.
    for (const margin of [0, 0.01, 0.02, -upper - 1e-6, -upper + 1e-6, 0.03, 0.1]) {
      const decision = decideGate([hit5], 0.95, gate({ margin }));
      expect(decision.failed, `margin ${margin}`).toBe(upper < -margin);
      expect(decision.checks[0]?.verdict).toBe(upper < -margin ? "worse" : "not-worse");
    }
  });

  it("--require-noninferior passes exactly when the interval's lower bound is above −d", () => {
    const lower = test?.lower as number;
    for (const margin of [0, 0.05, -lower - 1e-6, -lower + 1e-6, 0.06, 0.2]) {
      const decision = decideGate([hit5], 0.95, gate({ rule: "noninferior", margin }));
      expect(decision.failed, `margin ${margin}`).toBe(!(lower > -margin));
    }
    expect(decideGate([hit5], 0.95, gate({ rule: "noninferior", margin: 0.06 })).failed).toBe(
      false,
    );
  });

  it("the one-sided p is t(ν)'s tail of (estimate + d)/se, recomputed", () => {
    const t = test as NonNullable<typeof test>;
    const margin = 0.02;
    const worse = decideGate([hit5], 0.95, gate({ margin })).checks[0];
    expect(worse?.p).toBeCloseTo(tCdf((t.estimate + margin) / t.se, t.df), 12);
    const noninferior = decideGate([hit5], 0.95, gate({ rule: "noninferior", margin })).checks[0];
    expect(noninferior?.p).toBeCloseTo(1 - tCdf((t.estimate + margin) / t.se, t.df), 12);
  });

  it("noninferiority over several metrics is intersection–union: no adjustment, all must pass", () => {
    // d = 0.06: hit5's lower bound (−0.0553) is above −d, rr's (−0.0861) is not.
    const decision = decideGate(results, 0.95, gate({ rule: "noninferior", margin: 0.06 }));
    expect(decision.checks.map((c) => c.verdict)).toEqual(["noninferior", "not-noninferior"]);
    expect(decision.checks.map((c) => c.adjustedP)).toEqual(decision.checks.map((c) => c.p));
    expect(decision.failed).toBe(true);
  });

  it("--estimand macro gates the macro interval", () => {
    const macro = hit5.comparisons[0]?.tests.macro as NonNullable<typeof test>;
    const margin = (-macro.upper + -(test?.upper as number)) / 2;
    // Between the two upper bounds: micro's interval is below −d, macro's is not.
    expect(macro.upper).toBeGreaterThan(test?.upper as number);
    expect(decideGate([hit5], 0.95, gate({ margin })).failed).toBe(true);
    expect(decideGate([hit5], 0.95, gate({ margin, estimand: "macro" })).failed).toBe(false);
  });

  it("a metric where lower is better is worse when the interval lies above +d", () => {
    const decision = decideGate(results, 0.95, gate({ lowerIsBetter: ["hit5"] }));
    expect(decision.checks.map((c) => c.verdict)).toEqual(["not-worse", "worse"]);
    expect(decision.checks[0]?.lowerIsBetter).toBe(true);
  });

  it("refuses a negative margin and an unknown lower-is-better metric (exit 2)", () => {
    for (const bad of [gate({ margin: -0.01 }), gate({ lowerIsBetter: ["hit@5"] })]) {
      let error: unknown;
      try {
        decideGate(results, 0.95, bad);
      } catch (e) {
        error = e;
      }
      expect(isRagciError(error)).toBe(true);
    }
  });
});

describe("decideGate on pairs within noise", () => {
  it("a copy of bm25 with 10 results changed is not worse, and noninferior at a 1-point margin", () => {
    const results = compared(bm25, noisy, ["hit5", "rr"]);
    const hit5 = results[0]?.comparisons[0]?.tests.micro;
    expect(hit5?.estimate).toBeCloseTo(microDifference(bm25, noisy, "hit5"), 12);
    expect(hit5?.estimate).toBeCloseTo(-4 / 1380, 12);
    expect(hit5?.lower).toBeLessThan(0);
    expect(hit5?.upper).toBeGreaterThan(0);
    expect(decideGate(results, 0.95, gate({})).failed).toBe(false);
    expect(decideGate(results, 0.95, gate({ rule: "noninferior", margin: 0.01 })).failed).toBe(
      false,
    );
    // d = 0 asks the candidate to be shown better: an interval across 0 does not show it.
    expect(decideGate(results, 0.95, gate({ rule: "noninferior", margin: 0 })).failed).toBe(true);
  });

  it("Holm across metrics: rr alone is shown worse, rr with hit5 is not (recomputed)", () => {
    const results = compared(bm25, rrWorse, ["hit5", "rr"]);
    const rr = results[1] as MetricComparisons;
    const alone = decideGate([rr], 0.95, gate({}));
    expect(alone.failed).toBe(true);
    const both = decideGate(results, 0.95, gate({}));
    const [pHit5, pRr] = both.checks.map((c) => c.p as number) as [number, number];
    // Holm (m = 2): the smaller p is doubled; the larger is max(that, itself).
    expect(pRr).toBeLessThan(pHit5);
    expect(both.checks[1]?.adjustedP).toBeCloseTo(Math.min(1, 2 * pRr), 12);
    expect(both.checks[0]?.adjustedP).toBeCloseTo(Math.max(Math.min(1, 2 * pRr), pHit5), 12);
    expect(pRr).toBeLessThan(0.025);
    expect(2 * pRr).toBeGreaterThan(0.025);
    expect(both.failed).toBe(false);
    expect(both.checks.map((c) => c.verdict)).toEqual(["not-worse", "not-worse"]);
  });

  it("a check without a test is untested: it cannot fail --fail-if-worse, and fails noninferiority", () => {
    // Analysed for micro only, gated on macro: no macro test.
    const only = compared(bm25, noisy, ["hit5"]).map((m) => ({
      ...m,
      comparisons: m.comparisons.map((c) => ({
        ...c,
        tests: c.tests.micro ? { micro: c.tests.micro } : {},
      })),
    }));
    const worse = decideGate(only, 0.95, gate({ estimand: "macro" }));
    expect(worse.checks[0]?.verdict).toBe("untested");
    expect(worse.failed).toBe(false);
    const noninferior = decideGate(
      only,
      0.95,
      gate({ estimand: "macro", rule: "noninferior", margin: 0.1 }),
    );
    expect(noninferior.failed).toBe(true);
  });
});
