/**
 * Stratified planning from a census: the half-width is recomputed here from the census by the
 * textbook formula (Cochran 1977 §5.3) with @stdlib's t quantile, independently of the library's
 * summarised strata.
 */
import quantile from "@stdlib/stats-base-dists-t-quantile";
import { describe, expect, it } from "vitest";
import { summarizeCensusStrata } from "../../../src/core/designs/predictedStandardErrors.js";
import { sizeStrata } from "../../../src/core/designs/sizeStrata.js";
import type { AllocationRule, DocumentStats, Estimand } from "../../../src/core/index.js";
import {
  allocate,
  documentStats,
  pilotStandardDeviations,
  requiredStratifiedDocuments,
  stratifiedHalfWidth,
} from "../../../src/core/index.js";
import { planningHalfWidth } from "../../../src/core/planning/planningHalfWidth.js";

/** A census of 150 documents: a few large ones with a lower hit rate, many small ones. */
function makeCensus(): DocumentStats {
  const ids: string[] = [];
  const n: number[] = [];
  const s: number[] = [];
  for (let d = 0; d < 150; d++) {
    const size = d < 25 ? 40 + ((d * 13) % 60) : 1 + ((d * 7) % 12);
    const rate = d < 25 ? 0.2 + ((d * 17) % 30) / 100 : ((d * 31) % 100) / 100;
    ids.push(`doc${d}`);
    n.push(size);
    s.push(Math.round(size * rate));
  }
  return documentStats({ ids, n, s });
}

function sd(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

/** se from the census by the formula, for the given K_h. */
function textbookSe(
  census: DocumentStats,
  strata: readonly { documents: readonly number[] }[],
  sampled: readonly number[],
  estimand: Estimand,
): number {
  const M = census.n.length;
  const N = census.n.reduce((a, b) => a + b, 0);
  const R = census.s.reduce((a, b) => a + b, 0) / N;
  let variance = 0;
  strata.forEach((h, i) => {
    const Mh = h.documents.length;
    const Kh = sampled[i] as number;
    const term = h.documents.map((d) => {
      const nd = census.n[d] as number;
      const sd_ = census.s[d] as number;
      return estimand === "micro" ? (sd_ - R * nd) / N : sd_ / nd;
    });
    // micro: M_h² (1 − f_h) S²_z/K_h ; macro: (M_h/M)² (1 − f_h) S²_r/K_h
    const scale = estimand === "micro" ? Mh : Mh / M;
    variance += scale ** 2 * (1 - Kh / Mh) * (sd(term) ** 2 / Kh);
  });
  return Math.sqrt(variance);
}

const census = makeCensus();
const strata = sizeStrata(census.n, 30);
const summary = summarizeCensusStrata(census, strata);
const rules: AllocationRule[] = ["equal", "proportional", "neyman"];

describe("stratifiedHalfWidth", () => {
  it.each(
    rules.flatMap((rule) =>
      (["macro", "micro"] as const).flatMap((estimand) =>
        [4, 12, 40, 90].map((documents) => ({ rule, estimand, documents })),
      ),
    ),
  )(
    "$rule, $estimand, K = $documents: t(0.975; K − 2)·se from the census formula",
    ({ rule, estimand, documents }) => {
      const got = stratifiedHalfWidth({ summary, rule, estimand, documents });
      expect(got.sampled.reduce((a, b) => a + b, 0)).toBe(documents);
      expect(got.df).toBe(documents - 2);
      const se = textbookSe(census, strata, got.sampled, estimand);
      expect(got.se).toBeCloseTo(se, 13);
      expect(got.halfWidth / (quantile(0.975, documents - 2) * se)).toBeCloseTo(1, 12);
    },
  );

  it("allocates Neyman on the S_h of the estimand planned for", () => {
    for (const estimand of ["macro", "micro"] as const) {
      const expected = allocate(
        30,
        summary.strata.map((h) => ({ population: h.population, sd: h.sd[estimand] })),
        "neyman",
      );
      expect(
        stratifiedHalfWidth({ summary, rule: "neyman", estimand, documents: 30 }).sampled,
      ).toEqual(expected);
    }
  });

  it("with one stratum is the SRS plan (ν = K − 1) with the census S", () => {
    const one = summarizeCensusStrata(census, [{ documents: Array.from(census.n, (_, d) => d) }]);
    const S = pilotStandardDeviations(census);
    for (const estimand of ["macro", "micro"] as const) {
      for (const documents of [3, 20, 149]) {
        const got = stratifiedHalfWidth({
          summary: one,
          rule: "proportional",
          estimand,
          documents,
        });
        const srs = planningHalfWidth({ sd: S[estimand], population: 150, documents });
        expect(got.halfWidth / srs).toBeCloseTo(1, 12);
      }
    }
  });

  it("Neyman is narrower than proportional on the estimand it allocates for, when the strata differ", () => {
    for (const estimand of ["macro", "micro"] as const) {
      const neyman = stratifiedHalfWidth({ summary, rule: "neyman", estimand, documents: 40 });
      const proportional = stratifiedHalfWidth({
        summary,
        rule: "proportional",
        estimand,
        documents: 40,
      });
      expect(neyman.halfWidth).toBeLessThanOrEqual(proportional.halfWidth);
    }
  });

  it("a census (K = M) has half-width 0", () => {
    expect(
      stratifiedHalfWidth({ summary, rule: "equal", estimand: "micro", documents: 150 }).halfWidth,
    ).toBe(0);
  });
});

describe("requiredStratifiedDocuments", () => {
  it.each(
    rules.flatMap((rule) =>
      (["macro", "micro"] as const).flatMap((estimand) =>
        [0.15, 0.08, 0.04, 0.02].map((halfWidth) => ({ rule, estimand, halfWidth })),
      ),
    ),
  )(
    "$rule, $estimand, w = $halfWidth: K meets w and K − 1 does not",
    ({ rule, estimand, halfWidth }) => {
      const K = requiredStratifiedDocuments({ summary, rule, estimand, halfWidth });
      expect(
        stratifiedHalfWidth({ summary, rule, estimand, documents: K }).halfWidth,
      ).toBeLessThanOrEqual(halfWidth);
      if (K > 4) {
        expect(
          stratifiedHalfWidth({ summary, rule, estimand, documents: K - 1 }).halfWidth,
        ).toBeGreaterThan(halfWidth);
      }
    },
  );

  it("starts at two documents per stratum and ends at the census", () => {
    expect(
      requiredStratifiedDocuments({ summary, rule: "neyman", estimand: "macro", halfWidth: 10 }),
    ).toBe(4);
    expect(
      requiredStratifiedDocuments({ summary, rule: "neyman", estimand: "macro", halfWidth: 1e-9 }),
    ).toBe(150);
  });

  it("rejects a half-width that is not positive", () => {
    expect(() =>
      requiredStratifiedDocuments({ summary, rule: "equal", estimand: "micro", halfWidth: 0 }),
    ).toThrow(/half-width 0 must be a positive number/);
  });
});
