/**
 * When ragci withholds its recommendation (src/core/recommendationWithheld.ts): a paired
 * comparison in which fewer than 8 documents differ (COVID-QA's first documents, tfidf − bm25,
 * hit@5, D recounted from the raw rows) has no interval recommended for either estimand, the
 * advice says why and what to do, and the gate calls it inconclusive; with 8 or more differing,
 * and for a single system (even with power-law sizes), nothing is withheld. The numbers the
 * advice quotes are checked against bench/method-guide/withheld.json.
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { analyze } from "../../src/core/analyze.js";
import { type Comparison, compareSystems, withCensusStudy } from "../../src/core/compare.js";
import type { MetricComparisons } from "../../src/core/compareMetric.js";
import { FEWEST_DIFFERING_DOCUMENTS } from "../../src/core/diagnostics/differingDocuments.js";
import { decideGate, type GateOptions } from "../../src/core/gate.js";
import { POWER_LAW_DECILE_SHARE } from "../../src/core/recommendationWithheld.js";
import { runRepetitions, type StudyOptions } from "../../src/core/simulation/coverageStudy.js";
import { summarizeStudy } from "../../src/core/simulation/studySummary.js";
import { WITHHELD_STUDIES, WITHHELD_STUDY } from "../../src/core/withheldStudyCoverage.js";
import { readCovidqa } from "../support/covidqaGatePairs.js";
import { methodGuideJson } from "../support/methodGuide.js";

const { rows } = readCovidqa();
const documentOrder = [...new Set(rows.map((r) => r.doc_id as string))];
const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** compare's inputs for tfidf − bm25 on hit5 over the given documents, and D from the rows. */
function pairOf(documents: readonly string[]) {
  const keep = new Set(documents);
  const byQuery = new Map<string, { doc: string; bm25: number; tfidf: number }>();
  for (const r of rows) {
    if (!keep.has(r.doc_id as string)) continue;
    const q = byQuery.get(r.query_id as string) ?? { doc: r.doc_id as string, bm25: 0, tfidf: 0 };
    q[r.system as "bm25" | "tfidf"] = Number(r.hit5);
    byQuery.set(r.query_id as string, q);
  }
  const docs = new Map<string, { n: number; a: number; b: number; d: number; dd: number }>();
  for (const q of byQuery.values()) {
    const x = docs.get(q.doc) ?? { n: 0, a: 0, b: 0, d: 0, dd: 0 };
    const d = q.tfidf - q.bm25;
    docs.set(q.doc, {
      n: x.n + 1,
      a: x.a + q.bm25,
      b: x.b + q.tfidf,
      d: x.d + d,
      dd: x.dd + d * d,
    });
  }
  const ids = [...docs.keys()];
  const v = [...docs.values()];
  const n = v.map((x) => x.n);
  const difference = documentStats({
    ids,
    n,
    s: v.map((x) => x.d),
    ss: v.map((x) => x.dd),
    binary: false,
  });
  return {
    comparison: compareSystems(
      {
        a: { name: "bm25", stats: documentStats({ ids, n, s: v.map((x) => x.a) }) },
        b: { name: "tfidf", stats: documentStats({ ids, n, s: v.map((x) => x.b) }) },
        difference,
        queriesDiffering: null,
      },
      { replicates: 0 },
    ),
    difference,
    differing: v.filter((x) => x.d !== 0).length,
  };
}

const tieHeavy = pairOf(documentOrder.slice(0, 10));
const enough = pairOf(documentOrder.slice(0, 20));

const metricComparisons = (c: Comparison): MetricComparisons => ({
  metric: "hit5",
  comparisons: [c],
  holm: [{}],
  groups: {},
});
const gate = (options: Partial<GateOptions>): GateOptions => ({
  rule: "fail-if-worse",
  margin: 0,
  estimand: "micro",
  baseline: "bm25",
  ...options,
});

describe(`a paired sample with fewer than ${FEWEST_DIFFERING_DOCUMENTS} differing documents`, () => {
  const d = tieHeavy.comparison.difference;

  it(`is tie-heavy: D = ${tieHeavy.differing} of 10 documents differ`, () => {
    expect(tieHeavy.differing).toBeLessThan(FEWEST_DIFFERING_DOCUMENTS);
    expect(tieHeavy.differing).toBeGreaterThan(1);
  });

  it("has its recommendation withheld for micro and macro, the intervals still there", () => {
    for (const e of [d.micro, d.macro]) {
      expect(e?.recommendationWithheld?.code).toBe("few-differing-documents");
      expect(e?.recommendationWithheld?.reason).toMatch(
        new RegExp(`^only ${tieHeavy.differing} documents differ between the two systems`),
      );
      expect(e?.intervals[e.recommended]?.available).toBe(true);
    }
  });

  it("says in the advice that no interval is recommended, how many differ, and what to do", () => {
    const found = d.advice.filter((a) => a.code === "few-differing-documents");
    expect(found).toHaveLength(1);
    const text = found[0]?.message as string;
    expect(text).toMatch(
      new RegExp(
        `^No interval of the difference is recommended: only ${tieHeavy.differing} of the 10 documents differ`,
      ),
    );
    expect(text).toContain("Label more documents");
    expect(text).toContain(
      `t-differing covered ≥ ${percent(WITHHELD_STUDY["paired-k20-50-lowest/macro/recommended-coverage"])}`,
    );
  });

  it("also when every difference is 0 (the interval is the point 0)", () => {
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    const zeros = documentStats({
      ids,
      n: ids.map(() => 3),
      s: ids.map(() => 0),
      ss: ids.map(() => 0),
      binary: false,
    });
    const a = analyze(zeros, { replicates: 0, differences: true });
    expect(a.macro?.recommendationWithheld?.reason).toMatch(/^only 0 documents differ/);
    expect(a.advice.map((x) => x.code)).toContain("few-differing-documents");
  });

  it("stays withheld with a census study (compare --census): the study is over all samples", () => {
    // The census: every document of the file, tfidf − bm25; SRS of K = 10 as the sample.
    const census = pairOf(documentOrder).difference;
    const options: StudyOptions = {
      documents: 10,
      repetitions: 100,
      replicates: 0,
      seed: 1,
      level: 0.95,
      fpc: true,
      differences: true,
    };
    const study = summarizeStudy(census, options, runRepetitions(census, options, 0, 100));
    const c = withCensusStudy(tieHeavy.comparison, study, "covidqa");
    expect(c.difference.micro?.recommendationWithheld?.code).toBe("few-differing-documents");
    expect(c.difference.macro?.recommendationWithheld?.code).toBe("few-differing-documents");
    expect(c.difference.advice.map((a) => a.code)).toContain("few-differing-documents");
  });

  it("is inconclusive at the gate: never fails fail-if-worse, always fails noninferior", () => {
    for (const estimand of ["micro", "macro"] as const) {
      const worse = decideGate([metricComparisons(tieHeavy.comparison)], 0.95, gate({ estimand }));
      expect(worse.checks[0]?.verdict).toBe("inconclusive");
      expect(worse.checks[0]?.fails).toBe(false);
      expect(worse.failed).toBe(false);
      expect(worse.checks[0]?.recommendationWithheld?.code).toBe("few-differing-documents");
      const noninferior = decideGate(
        [metricComparisons(tieHeavy.comparison)],
        0.95,
        // A margin so wide that the interval's lower bound is far above −margin.
        gate({ estimand, rule: "noninferior", margin: 10 }),
      );
      expect(noninferior.checks[0]?.verdict).toBe("inconclusive");
      expect(noninferior.failed).toBe(true);
    }
  });
});

describe(`with at least ${FEWEST_DIFFERING_DOCUMENTS} differing documents`, () => {
  it(`nothing is withheld (D = ${enough.differing} of 20) and the gate decides`, () => {
    expect(enough.differing).toBeGreaterThanOrEqual(FEWEST_DIFFERING_DOCUMENTS);
    const d = enough.comparison.difference;
    expect(d.micro?.recommendationWithheld).toBeUndefined();
    expect(d.macro?.recommendationWithheld).toBeUndefined();
    const noninferior = decideGate(
      [metricComparisons(enough.comparison)],
      0.95,
      gate({ rule: "noninferior", margin: 10 }),
    );
    expect(noninferior.checks[0]?.verdict).toBe("noninferior");
    expect(noninferior.failed).toBe(false);
  });
});

describe("a single system with power-law sizes", () => {
  // 20 documents: two of 400 results and eighteen of 5 (the largest decile holds 800 of 890).
  const n = [400, 400, ...Array.from({ length: 18 }, () => 5)];
  const s = [100, 300, ...Array.from({ length: 18 }, (_, d) => d % 6)];
  const ids = n.map((_, d) => `d${d}`);
  const a = analyze(documentStats({ ids, n, s }), { replicates: 0 });

  it("keeps logit-cv3 recommended, with the power-law-sizes warning quoting the study", () => {
    expect(800 / n.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(POWER_LAW_DECILE_SHARE);
    expect(a.micro?.recommended).toBe("logit-cv3");
    expect(a.micro?.recommendationWithheld).toBeUndefined();
    const text = a.advice.find((x) => x.code === "power-law-sizes")?.message as string;
    expect(text).toContain(
      `${percent(WITHHELD_STUDY["pareto-k20/micro/concentrated-coverage"])} of 95% among them against ${percent(WITHHELD_STUDY["pareto-k20/micro/others-coverage"])} among the other samples`,
    );
  });
});

interface Summary {
  samplesRecommended: number;
  coverageWhenRecommended: number | null;
  concentrated?: { share: number; coverage: number | null; coverageOthers: number | null };
}
const study = methodGuideJson<{
  powerLawDecileShare: number;
  results: Record<
    string,
    {
      paired: boolean;
      heldOut: boolean;
      cells: { k: number; fpc: boolean; micro: Summary; macro: Summary }[];
    }
  >;
}>("withheld.json");
const cell = (census: string, k: number, fpc: boolean) =>
  study.results[census]?.cells.find((c) => c.k === k && c.fpc === fpc);

describe("the numbers the advice quotes are withheld.json's", () => {
  it("the power-law census at K = 20: samples as concentrated as the warning's, and the others", () => {
    expect(study.powerLawDecileShare).toBe(POWER_LAW_DECILE_SHARE);
    const x = cell("pareto", 20, false)?.micro.concentrated;
    expect(
      Math.abs((x?.coverage as number) - WITHHELD_STUDY["pareto-k20/micro/concentrated-coverage"]),
    ).toBeLessThan(0.00005);
    expect(
      Math.abs((x?.share as number) - WITHHELD_STUDY["pareto-k20/micro/concentrated-share"]),
    ).toBeLessThan(0.00005);
    expect(
      Math.abs((x?.coverageOthers as number) - WITHHELD_STUDY["pareto-k20/micro/others-coverage"]),
    ).toBeLessThan(0.00005);
  });

  it("the real held-out census (TAT-QA): 93.8% or more wherever an interval is recommended", () => {
    const cells = Object.entries(study.results)
      .filter(([name]) => name.includes("tatqa"))
      .flatMap(([, r]) => r.cells);
    expect(cells).toHaveLength(4 * 6);
    const coverages = cells.flatMap((c) =>
      [c.micro, c.macro].map((x) => x.coverageWhenRecommended as number),
    );
    // docs/choosing-an-interval.md quotes this range.
    expect(Math.min(...coverages)).toBeCloseTo(0.938, 3);
    expect(Math.max(...coverages)).toBeCloseTo(0.967, 3);
  });

  it("the real held-out paired census (TAT-QA): compare's advice quotes its range", () => {
    const cells = Object.entries(study.results)
      .filter(([name]) => name.startsWith("heldout-paired-tatqa"))
      .flatMap(([, r]) => r.cells);
    for (const estimand of ["micro", "macro"] as const) {
      const coverages = cells.map((c) => c[estimand].coverageWhenRecommended as number);
      const key = (end: "lowest" | "highest") =>
        `heldout-paired-tatqa-${end}/${estimand}/recommended-coverage` as const;
      expect(Math.abs(Math.min(...coverages) - WITHHELD_STUDY[key("lowest")])).toBeLessThan(
        0.00005,
      );
      expect(Math.abs(Math.max(...coverages) - WITHHELD_STUDY[key("highest")])).toBeLessThan(
        0.00005,
      );
    }
    const note = enough.comparison.difference.advice.find((a) => a.code === "paired-studies");
    expect(note?.message).toContain(
      `and on a real one held out too (TAT-QA, TF-IDF − BM25) micro cr2 covered ${percent(WITHHELD_STUDY["heldout-paired-tatqa-lowest/micro/recommended-coverage"])}–`,
    );
  });

  it("WITHHELD_STUDIES counts the censuses of withheld.json, and those held out", () => {
    const all = Object.values(study.results);
    expect(WITHHELD_STUDIES).toContain(
      `on ${all.length} censuses, ${all.filter((r) => r.heldOut).length} of them held out`,
    );
  });

  it("micro logit-cv3's lowest coverage at K = 10–50: the power-law census and the held-out ones", () => {
    const lowest = (keep: (name: string, heldOut: boolean) => boolean) =>
      Math.min(
        ...Object.entries(study.results)
          .filter(([name, r]) => !r.paired && keep(name, r.heldOut))
          .flatMap(([, r]) => r.cells.filter((c) => c.k >= 10 && !c.fpc))
          .map((c) => c.micro.coverageWhenRecommended as number),
      );
    expect(
      Math.abs(
        lowest((name) => name === "pareto") -
          WITHHELD_STUDY["pareto-k10-50-lowest/micro/recommended-coverage"],
      ),
    ).toBeLessThan(0.00005);
    expect(
      Math.abs(
        lowest((_, heldOut) => heldOut) -
          WITHHELD_STUDY["heldout-k10-50-lowest/micro/recommended-coverage"],
      ),
    ).toBeLessThan(0.00005);
    // The single-system censuses' lowest is the power-law one's: the advice names the worst.
    expect(lowest(() => true)).toBe(lowest((name) => name === "pareto"));
  });

  it("the lowest paired macro coverage where an interval is recommended, K = 20 and 50", () => {
    const lowest = Math.min(
      ...Object.values(study.results)
        .filter((r) => r.paired)
        .flatMap((r) => r.cells.filter((c) => c.k >= 20))
        .flatMap((c) =>
          c.macro.coverageWhenRecommended === null ? [] : [c.macro.coverageWhenRecommended],
        ),
    );
    expect(
      Math.abs(lowest - WITHHELD_STUDY["paired-k20-50-lowest/macro/recommended-coverage"]),
    ).toBeLessThan(0.0005);
  });

  it("the held-out paired census at K = 50: micro cr2 and macro t-differing where recommended", () => {
    const x = cell("heldout-paired", 50, false);
    expect(
      Math.abs(
        (x?.micro.coverageWhenRecommended as number) -
          WITHHELD_STUDY["heldout-paired-k50/micro/recommended-coverage"],
      ),
    ).toBeLessThan(0.00005);
    expect(
      Math.abs(
        (x?.macro.coverageWhenRecommended as number) -
          WITHHELD_STUDY["heldout-paired-k50/macro/recommended-coverage"],
      ),
    ).toBeLessThan(0.00005);
    const note = enough.comparison.difference.advice.find((a) => a.code === "paired-studies");
    expect(note?.message).toContain(
      `micro cr2 covered only ${percent(WITHHELD_STUDY["heldout-paired-k50/micro/recommended-coverage"])} at K = 50`,
    );
  });

  it("why micro is not withheld: concentrated samples covered at least as well as the others, everywhere", () => {
    for (const r of Object.values(study.results).filter((x) => !x.paired))
      for (const c of r.cells) {
        const x = c.micro.concentrated;
        if (!x || x.coverage === null || x.coverageOthers === null) continue;
        expect(x.coverage).toBeGreaterThanOrEqual(x.coverageOthers);
      }
  });
});
