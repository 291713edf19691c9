/**
 * Every advice code the analysis can emit (src/core/recommendMethod.ts, designDeclaredAdvice in
 * src/core/designs/applyDesign.ts, applyCensusStudy in src/core/simulation/applyCensusStudy.ts),
 * each produced from per-document data built for it, with the numbers its text states checked
 * against the data: the code is there, and what it says is true.
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../src/core/aggregate/documentStats.js";
import { type Analysis, analyze } from "../../src/core/analyze.js";
import type { DocumentDesign } from "../../src/core/designs/applyDesign.js";
import { FEWEST_DIFFERING_DOCUMENTS } from "../../src/core/diagnostics/differingDocuments.js";
import { PAIRED_STUDY_COVERAGE } from "../../src/core/pairedStudyCoverage.js";
import {
  type AdviceCode,
  RAGCI_STUDY_COVERAGE,
  STUDIED_CONDITIONS,
} from "../../src/core/recommendMethod.js";
import { applyCensusStudy } from "../../src/core/simulation/applyCensusStudy.js";
import { runRepetitions, type StudyOptions } from "../../src/core/simulation/coverageStudy.js";
import { summarizeStudy } from "../../src/core/simulation/studySummary.js";
import type { DocumentStats } from "../../src/core/types.js";
import { cr2DegreesOfFreedom } from "../../src/core/variance/cr2DegreesOfFreedom.js";
import { WITHHELD_STUDY } from "../../src/core/withheldStudyCoverage.js";
import { mulberry32 } from "../support/mulberry32.js";

const ids = (k: number) => Array.from({ length: k }, (_, d) => `d${d}`);

/** 0/1 results: n_d results per document, s_d of them 1. */
const binary = (n: readonly number[], s: readonly number[]) =>
  documentStats({ ids: ids(n.length), n, s });

const run = (stats: DocumentStats, options: Parameters<typeof analyze>[1] = {}) =>
  analyze(stats, { replicates: 0, ...options });

const codes = (a: Analysis) => a.advice.map((x) => x.code);

function adviceText(a: Analysis, code: AdviceCode): string {
  const found = a.advice.filter((x) => x.code === code);
  expect(found, `${code} in ${codes(a).join(", ")}`).toHaveLength(1);
  return (found[0] as { message: string }).message;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const sum = (v: readonly number[]) => v.reduce((a, b) => a + b, 0);

/** Ten documents of equal size with rates between 0 and 1, none at a bound. */
const EVEN_N = [10, 10, 10, 10, 10, 10, 10, 10, 10, 10];
const EVEN_S = [3, 4, 5, 6, 2, 7, 4, 5, 6, 3];

describe("K advice under SRS", () => {
  it("very-few-documents: K = 4 says K = 4 and that no interval guarantees coverage", () => {
    const a = run(binary([10, 12, 8, 10], [3, 5, 2, 6]));
    const text = adviceText(a, "very-few-documents");
    expect(a.documents).toBe(4);
    expect(text).toMatch(/^K = 4: no interval guarantees the nominal coverage/);
    expect(codes(a)).not.toContain("few-documents");
  });

  it("few-documents: K = 10 says K = 10 is below 20 (and not very-few-documents)", () => {
    const a = run(binary(EVEN_N, EVEN_S));
    expect(a.documents).toBe(10);
    expect(adviceText(a, "few-documents")).toMatch(/^K = 10 is below 20:/);
    expect(codes(a)).not.toContain("very-few-documents");
  });

  it("neither at K = 20", () => {
    const a = run(binary([...EVEN_N, ...EVEN_N], [...EVEN_S, ...EVEN_S]));
    expect(codes(a)).not.toContain("few-documents");
    expect(codes(a)).not.toContain("very-few-documents");
  });
});

describe("paired differences", () => {
  /**
   * K documents of 6 paired queries, the first `differing` with one query where b − a = +1 or
   * −1 (alternating) and one more where they agree on the sign, the rest tied (summed 0).
   */
  function differences(k: number, differing: number): DocumentStats {
    const s = Array.from({ length: k }, (_, d) => (d < differing ? (d % 2 === 0 ? 2 : -1) : 0));
    const ss = s.map((x) => (x === 2 ? 2 : Math.abs(x)));
    return documentStats({ ids: ids(k), n: s.map(() => 6), s, ss, binary: false });
  }
  const paired = (stats: DocumentStats) => run(stats, { differences: true });

  it("few-differing-documents: states how many documents differ, recounted from the sums", () => {
    const stats = differences(20, 5);
    const counted = Array.from(stats.s).filter((x) => x !== 0).length;
    expect(counted).toBe(5);
    const text = adviceText(paired(stats), "few-differing-documents");
    expect(text).toMatch(
      new RegExp(
        `^No interval of the difference is recommended: only ${counted} of the 20 documents differ .*\\(the other ${20 - counted} are ties\\)`,
      ),
    );
    expect(text).toContain(
      `macro t-differing covered ≥ ${percent(PAIRED_STUDY_COVERAGE["enough-differ-lowest/macro/t-differing"])}`,
    );
  });

  it(`is not given with ${FEWEST_DIFFERING_DOCUMENTS} differing documents, nor for one system`, () => {
    expect(codes(paired(differences(20, FEWEST_DIFFERING_DOCUMENTS)))).not.toContain(
      "few-differing-documents",
    );
    expect(codes(paired(differences(20, FEWEST_DIFFERING_DOCUMENTS - 1)))).toContain(
      "few-differing-documents",
    );
    expect(codes(run(binary(EVEN_N, EVEN_S)))).not.toContain("few-differing-documents");
  });

  it("few-documents at K = 10 quotes the paired studies of the recommended intervals at K = 10", () => {
    const text = adviceText(paired(differences(10, 9)), "few-documents");
    expect(text).toMatch(
      /^K = 10 is below 20: at K = 10 the recommended intervals of a paired difference/,
    );
    expect(text).toContain(
      `${percent(PAIRED_STUDY_COVERAGE["k10-lowest/macro/t-differing"])}–${percent(PAIRED_STUDY_COVERAGE["k10-highest/macro/t-differing"])} (macro t-differing`,
    );
    expect(text).toContain(
      `macro t with ν = K − 1 covered ${percent(PAIRED_STUDY_COVERAGE["k10-lowest/macro/t"])}–${percent(PAIRED_STUDY_COVERAGE["k10-highest/macro/t"])}`,
    );
    expect(text).not.toContain("logit");
  });

  it("very-few-documents at K = 4 quotes the paired studies at K = 5, the smallest K studied", () => {
    const text = adviceText(paired(differences(4, 4)), "very-few-documents");
    expect(text).toMatch(/^K = 4: at K = 5 \(the smallest K studied\) the recommended/);
    expect(text).toContain(
      `${percent(PAIRED_STUDY_COVERAGE["k5-lowest/micro/cr2"])}–${percent(PAIRED_STUDY_COVERAGE["k5-highest/micro/cr2"])} of 95% (micro cr2)`,
    );
  });

  it.each([
    [20, 20],
    [35, 20],
    [50, 50],
    [80, 50],
  ] as const)(
    "paired-studies at K = %i: a note quoting the studies at K = %i, no K warning",
    (k, at) => {
      const a = paired(differences(k, 12));
      const text = adviceText(a, "paired-studies");
      expect(text).toMatch(
        new RegExp(
          `^K = ${k}: at K = ${at}${k === at ? "" : " \\(the studied K nearest below yours\\)"} the recommended intervals`,
        ),
      );
      const range = (m: string) =>
        `${percent(PAIRED_STUDY_COVERAGE[`k${at}-lowest/${m}` as keyof typeof PAIRED_STUDY_COVERAGE])}–${percent(PAIRED_STUDY_COVERAGE[`k${at}-highest/${m}` as keyof typeof PAIRED_STUDY_COVERAGE])}`;
      expect(text).toContain(`${range("micro/cr2")} of 95% (micro cr2)`);
      expect(text).toContain(`${range("macro/t-differing")} (macro t-differing`);
      expect(codes(a)).not.toContain("few-documents");
      expect(a.advice.find((x) => x.code === "paired-studies")?.severity).toBe("note");
    },
  );

  it("no paired-studies note for one system's analysis", () => {
    expect(codes(run(binary([...EVEN_N, ...EVEN_N], [...EVEN_S, ...EVEN_S])))).not.toContain(
      "paired-studies",
    );
  });
});

describe("studied-conditions (a sample without a census)", () => {
  it("states the sample's K, size tail and shares at 0 and 1, recounted from its sums", () => {
    // Twenty documents: two of 30 results, eighteen of 10; rates 0 for six, 1 for two.
    const n = [30, 30, ...Array.from({ length: 18 }, () => 10)];
    const s = [9, 12, 0, 0, 0, 0, 0, 0, 10, 10, 3, 4, 5, 6, 2, 7, 4, 5, 6, 3];
    const text = adviceText(run(binary(n, s)), "studied-conditions");
    const share = 60 / sum(n);
    const zeros = s.filter((x) => x === 0).length / 20;
    const ones = s.filter((x, d) => x === n[d]).length / 20;
    expect(text).toContain(
      `This sample, K = 20: its largest 2 documents hold ${percent(share)} of the results, ${percent(zeros)} of documents are at 0 and ${percent(ones)} at 1; all within the studied ranges`,
    );
    expect(share).toBeGreaterThanOrEqual(STUDIED_CONDITIONS.shareLargestDecile[0]);
    expect(text).toContain(`SRS of K = 5–50 from ${STUDIED_CONDITIONS.censuses} censuses`);
    expect(text).not.toContain("largest K studied");
  });

  it("says when K is above the largest K studied", () => {
    const n = Array.from({ length: 60 }, (_, d) => 5 + (d % 7));
    const s = n.map((nd, d) => d % nd);
    const text = adviceText(run(binary(n, s)), "studied-conditions");
    expect(text).toContain("; K = 60 is above the largest K studied (50)");
  });

  it("names what lies beyond the studied ranges: a heavier size tail, 45% of documents at 1", () => {
    const n = [400, 400, ...Array.from({ length: 18 }, () => 1)];
    const s = [100, 300, ...Array.from({ length: 18 }, (_, d) => d % 2)];
    expect(800 / sum(n)).toBeGreaterThan(STUDIED_CONDITIONS.shareLargestDecile[1]);
    expect(9 / 20).toBeGreaterThan(STUDIED_CONDITIONS.fractionOne[1]);
    expect(9 / 20).toBeLessThan(STUDIED_CONDITIONS.fractionZero[1]);
    const text = adviceText(run(binary(n, s)), "studied-conditions");
    expect(text).toContain(
      "its size tail, its share at 1 lie beyond the studied ranges, so no study here speaks for it directly",
    );
  });

  it("is not given for paired differences, a score outside [0, 1], or a census", () => {
    expect(codes(run(binary(EVEN_N, EVEN_S), { population: 10 }))).not.toContain(
      "studied-conditions",
    );
    const score = documentStats({
      ids: ids(4),
      n: [2, 2, 2, 2],
      s: [3, 5, 1, 4],
      ss: [5, 13, 1, 8],
      binary: false,
    });
    expect(codes(run(score))).not.toContain("studied-conditions");
  });
});

describe("under a declared design", () => {
  // Two strata of 5 sampled documents each (M_h = 40 and 60): K = 10, H = 2, ν = K − H = 8.
  const stats = binary(EVEN_N, EVEN_S);
  const stratified: DocumentDesign = {
    kind: "stratified",
    strata: ["a", "a", "a", "a", "a", "b", "b", "b", "b", "b"],
    populationSizes: { a: 40, b: 60 },
  };

  it("few-documents: states K and the design's ν, which is K − H", () => {
    const a = run(stats, { design: stratified });
    const df = a.micro?.intervals.stratified;
    expect(df?.available && df.df).toBe(8);
    expect(adviceText(a, "few-documents")).toMatch(/^K = 10 documents, design ν = 8: /);
  });

  it("design-declared (stratified): ν = K − H and the bootstraps not available, as it says", () => {
    const a = run(stats, { design: stratified, replicates: 99 });
    const text = adviceText(a, "design-declared");
    expect(a.advice[0]?.code).toBe("design-declared");
    expect(text).toMatch(/^Stratified design: .* ν = K − H/);
    expect(a.micro?.recommended).toBe("stratified");
    const interval = a.micro?.intervals.stratified;
    expect(interval?.available && interval.df).toBe(10 - 2);
    expect(a.micro?.intervals["bootstrap-t"]?.available).toBe(false);
    expect(a.macro?.intervals["bootstrap-percentile"]?.available).toBe(false);
  });

  it("design-declared (two-stage): ν = m − 1 with m the sampled units", () => {
    const design: DocumentDesign = {
      kind: "two-stage",
      units: ["u1", "u1", "u2", "u2", "u2", "u3", "u3", "u4", "u4", "u4"],
      firstStagePopulation: 12,
      secondStagePopulation: { u1: 5, u2: 6, u3: 4, u4: 8 },
    };
    const a = run(stats, { design });
    expect(adviceText(a, "design-declared")).toMatch(/^Two-stage design: .* ν = m − 1/);
    const interval = a.micro?.intervals["two-stage"];
    expect(interval?.available && interval.df).toBe(4 - 1);
  });
});

describe("sizes", () => {
  // 20 documents: two of 400 results and eighteen of 5 (the largest decile holds 800 of 890).
  const n = [400, 400, ...Array.from({ length: 18 }, () => 5)];
  const s = [100, 300, ...Array.from({ length: 18 }, (_, d) => d % 6)];
  const a = run(binary(n, s));

  it("micro-unequal-sizes: the sizes it names are the smallest and largest n_d", () => {
    const text = adviceText(a, "micro-unequal-sizes");
    expect(text).toContain(
      `Document sizes differ (${Math.min(...n)} to ${Math.max(...n)} results)`,
    );
    expect(a.micro?.recommended).toBe("logit-cv3");
  });

  it("micro-unequal-sizes: quotes where logit-cv3 fell short, not only where it held", () => {
    const text = adviceText(a, "micro-unequal-sizes");
    expect(text).toContain(
      `on a power-law census it covered ${percent(RAGCI_STUDY_COVERAGE["pareto/micro/logit-cv3"])} at K = 20 and as little as ${percent(WITHHELD_STUDY["pareto-k10-50-lowest/micro/recommended-coverage"])} at K = 50, and ${percent(WITHHELD_STUDY["heldout-k10-50-lowest/micro/recommended-coverage"])} on a power law held out`,
    );
    expect(RAGCI_STUDY_COVERAGE["pareto/micro/logit-cv3"]).toBeLessThan(0.92);
    expect(text).toContain("stratify by size (ragci strata)");
  });

  it("power-law-sizes: the largest decile's share of the results is the one stated", () => {
    const text = adviceText(a, "power-law-sizes");
    expect(text).toContain(`The largest 2 documents hold ${percent(800 / sum(n))} of all results`);
    expect(800 / sum(n)).toBeGreaterThanOrEqual(0.8);
  });

  it("df-far-below-k: the stated cr2 ν is cr2DegreesOfFreedom and below (K − 1)/2", () => {
    const nu = cr2DegreesOfFreedom(binary(n, s));
    expect(nu).toBeLessThan(0.5 * 19);
    expect(adviceText(a, "df-far-below-k")).toBe(
      `cr2 ν = ${nu.toFixed(2)} is far below K − 1 = 19: a few large documents carry the micro estimate, so it behaves like a sample of far fewer documents.`,
    );
  });

  it("dominant-document: names the document holding half the results and its share", () => {
    const m = [900, 10, 10, 10, 10, 10, 10, 10, 10, 10];
    const b = run(binary(m, [450, 3, 4, 5, 6, 2, 7, 4, 5, 6]));
    expect(adviceText(b, "dominant-document")).toMatch(
      new RegExp(`^Document d0 holds ${percent(900 / sum(m)).replace(".", "\\.")} of all results`),
    );
    expect(codes(run(binary(EVEN_N, EVEN_S)))).not.toContain("dominant-document");
  });

  it("equal sizes: none of the size advice", () => {
    const b = run(binary(EVEN_N, EVEN_S));
    for (const code of ["micro-unequal-sizes", "power-law-sizes", "dominant-document"] as const)
      expect(codes(b)).not.toContain(code);
  });
});

describe("rates and bounds", () => {
  it("rates-at-bounds: the fractions of documents at rate 0 and at rate 1 are the stated ones", () => {
    // 8 documents: two at rate 0, one at rate 1.
    const n = [10, 10, 10, 10, 10, 10, 10, 10];
    const s = [0, 0, 10, 4, 5, 6, 3, 7];
    const a = run(binary(n, s));
    expect(adviceText(a, "rates-at-bounds")).toBe(
      `${percent(2 / 8)} of documents have rate exactly 0 and ${percent(1 / 8)} exactly 1. The logit intervals keep their limits inside [0, 1].`,
    );
    expect(a.micro?.intervals.logit?.available).toBe(true);
    expect(codes(run(binary(EVEN_N, EVEN_S)))).not.toContain("rates-at-bounds");
  });

  it("interval-outside-unit: the recommended (design) interval reaches above 1, as it says", () => {
    // Rates near 1 and one low document, in two strata of three: the stratified t interval
    // (ν = 4) reaches past 1; the logit interval built on it stays inside.
    const stats = binary([10, 10, 10, 10, 10, 10], [10, 10, 4, 10, 9, 10]);
    const a = run(stats, {
      design: {
        kind: "stratified",
        strata: ["a", "a", "a", "b", "b", "b"],
        populationSizes: { a: 50, b: 50 },
      },
    });
    adviceText(a, "interval-outside-unit");
    const reaches = (["micro", "macro"] as const).some((e) => {
      const i = a[e]?.intervals[a[e]?.recommended ?? "t"];
      return i?.available === true && (i.lower < 0 || i.upper > 1);
    });
    expect(reaches).toBe(true);
    const logit = a.micro?.intervals.logit;
    expect(logit?.available && logit.upper <= 1 && logit.lower >= 0).toBe(true);
    expect(codes(run(binary(EVEN_N, EVEN_S)))).not.toContain("interval-outside-unit");
  });

  it("bounded-interval-unavailable: a score outside [0, 1] has no logit-cv3/logit; cr2 and t are shown", () => {
    const n = [4, 5, 6, 4, 5, 6, 4, 5, 6, 4];
    const s = n.map((nd, d) => nd * (2 + d / 4));
    const ss = n.map((nd, d) => nd * (2 + d / 4) ** 2 + 1);
    const stats = documentStats({ ids: ids(10), n, s, ss, binary: false, min: 1, max: 5 });
    const a = run(stats);
    expect(a.metricKind).toBe("score");
    const [micro, macro] = a.advice.filter((x) => x.code === "bounded-interval-unavailable");
    expect(micro?.message).toBe(
      "micro: logit-cv3, the interval ragci recommends for metrics in [0, 1], is not available here (metric not in [0, 1]); cr2 is shown instead.",
    );
    expect(macro?.message).toMatch(
      /^macro: logit, .*\(metric not in \[0, 1\]\); t is shown instead\.$/,
    );
    expect(a.micro?.recommended).toBe("cr2");
    expect(a.macro?.recommended).toBe("t");
    expect(a.micro?.intervals["logit-cv3"]?.available).toBe(false);
  });
});

describe("no sampling error", () => {
  it("zero-standard-error: every document at the same rate, and the se is indeed 0", () => {
    const a = run(binary([4, 8, 12, 16, 20], [1, 2, 3, 4, 5]));
    expect(adviceText(a, "zero-standard-error")).toMatch(/^Every document has the same rate, /);
    // The table shows the point the se gives ([r, r]): the note says so, not that none is shown.
    expect(adviceText(a, "zero-standard-error")).toContain(
      "every interval built on it is the single point of the estimate, shown as it is",
    );
    expect(a.micro?.intervals.cr2).toMatchObject({ available: true, se: 0 });
    const cr2 = a.micro?.intervals.cr2;
    expect(cr2?.available && cr2.se).toBe(0);
    // No K or method advice: it would not be true of these data.
    expect(codes(a)).not.toContain("very-few-documents");
  });

  it("census: K = M gives fpc 0 and zero-width intervals, as it says", () => {
    const a = run(binary(EVEN_N, EVEN_S), { population: 10 });
    expect(adviceText(a, "census")).toMatch(/^K = M: /);
    expect(a.design.fpc).toBe(0);
    const cr2 = a.micro?.intervals.cr2;
    expect(cr2?.available && cr2.se).toBe(0);
    expect(codes(a)).not.toContain("few-documents");
    expect(codes(a)).not.toContain("zero-standard-error");
  });
});

describe("outside-inference", () => {
  it("closes every analysis, with or without a design", () => {
    for (const a of [
      run(binary(EVEN_N, EVEN_S)),
      run(binary(EVEN_N, EVEN_S), { population: 10 }),
      run(binary([4, 8, 12], [1, 2, 3])),
    ]) {
      expect(a.advice.at(-1)?.code).toBe("outside-inference");
      expect(a.advice.at(-1)?.message).toMatch(/only the sampling of documents is accounted for/);
    }
  });
});

describe("census-study", () => {
  // A census of 300 documents with sizes 1–40 and rates spread over [0, 1].
  const rand = mulberry32(13);
  const M = 300;
  const censusN = Array.from({ length: M }, () => 1 + Math.floor(rand() * 40));
  const censusS = censusN.map((nd) => Math.floor(rand() * (nd + 1)));
  const census = binary(censusN, censusS);
  const options: StudyOptions = {
    documents: 20,
    repetitions: 120,
    replicates: 0,
    seed: 5,
    level: 0.95,
    fpc: true,
  };
  const study = summarizeStudy(census, options, runRepetitions(census, options, 0, 120));
  // A sample of 20 documents of the census (every 15th).
  const picked = Array.from({ length: 20 }, (_, i) => 15 * i);
  const sample = binary(
    picked.map((d) => censusN[d] as number),
    picked.map((d) => censusS[d] as number),
  );
  const plain = run(sample, { population: M });
  const a = applyCensusStudy(plain, study, "census.csv");

  it("comes first and states the study's repetitions, K and B", () => {
    expect(a.advice[0]?.code).toBe("census-study");
    expect(adviceText(a, "census-study")).toMatch(
      /^Recommended from a coverage study on the census census\.csv \(120 SRS samples of K = 20, B = 0\), not from the article's table: /,
    );
  });

  it("the recommended methods and coverages it names are the study's, and they are used", () => {
    const text = adviceText(a, "census-study");
    for (const e of ["micro", "macro"] as const) {
      const method = a[e]?.recommended as string;
      const coverage = study.methods[`${e}/${method}` as keyof typeof study.methods].coverage;
      expect(text).toContain(`${e} ${method} (${percent(coverage)}`);
    }
  });

  it("replaces micro-unequal-sizes and studied-conditions (the general evidence), keeps the rest", () => {
    const general = ["micro-unequal-sizes", "studied-conditions"];
    for (const code of general) {
      expect(codes(plain)).toContain(code);
      expect(codes(a)).not.toContain(code);
    }
    expect(codes(a).slice(1)).toEqual(codes(plain).filter((c) => !general.includes(c)));
  });
});

describe("studied-level: a level other than 95% is told the studies' figures are of 95%", () => {
  const n = [4, 9, 2, 30, 6, 11, 3, 8, 5, 20, 7, 12];
  const s = [2, 5, 1, 21, 3, 6, 2, 4, 2, 9, 5, 6];
  it("at 99.9% the note names both levels; at 95% there is none", () => {
    const text = adviceText(run(binary(n, s), { level: 0.999 }), "studied-level");
    expect(text).toBe(
      "The coverages quoted here are of 95% intervals, the level ragci's studies scored; these intervals are at 99.9%, whose coverage those studies did not measure (ragci simulate `level` 0.999 on a census measures it).",
    );
    expect(codes(run(binary(n, s)))).not.toContain("studied-level");
    expect(codes(run(binary(n, s), { level: 0.95 }))).not.toContain("studied-level");
  });

  it("nothing of 95% quoted (a census, K = M), no note", () => {
    const a = run(binary(n, s), { level: 0.9, population: n.length });
    expect(a.advice.some((x) => x.message.includes("of 95%"))).toBe(false);
    expect(codes(a)).not.toContain("studied-level");
  });
});
