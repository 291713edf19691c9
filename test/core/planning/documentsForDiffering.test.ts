/**
 * test/fixtures/numpy/differing_documents.json: P(at least 8 of K sampled documents differ)
 * from scipy.stats.hypergeom (M, D differing, K drawn) and scipy.stats.binom (a share p, no M),
 * and the smallest K reaching 0.9 found by scanning K in scipy (differing_documents.py).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type DifferingPopulation,
  documentsForDiffering,
  probabilityEnoughDiffer,
} from "../../../src/core/planning/documentsForDiffering.js";
import { planSample } from "../../../src/core/planning/samplePlan.js";

interface Case {
  population: number | null;
  differing?: number;
  share?: number;
  fewest: number;
  documents?: number;
  probability?: number;
  target?: number;
  documents_needed?: number | null;
}
const reference = JSON.parse(
  readFileSync(new URL("../../fixtures/numpy/differing_documents.json", import.meta.url), "utf8"),
) as { cases: Case[] };
const from = (c: Case): DifferingPopulation =>
  c.population === null
    ? { population: null, share: c.share as number }
    : { population: c.population, differing: c.differing as number };
const name = (c: Case) =>
  c.population === null ? `p = ${c.share}` : `M = ${c.population}, D = ${c.differing}`;

describe("probabilityEnoughDiffer", () => {
  it.each(reference.cases.filter((c) => c.documents !== undefined).map((c) => [name(c), c]))(
    "%s is scipy's sf(7) at K",
    (_, c) => {
      const p = probabilityEnoughDiffer(from(c), c.documents as number, c.fewest);
      expect(Math.abs(p - (c.probability as number))).toBeLessThan(1e-12);
    },
  );

  it("is 1 when K is beyond the tied documents by at least 8, and counts from there otherwise", () => {
    expect(probabilityEnoughDiffer({ population: 20, differing: 12 }, 16, 8)).toBe(1);
    // K = 12 of 20 with 12 differing: at least 4 differ; P(X ≥ 8) by direct enumeration.
    const choose = (n: number, r: number): number =>
      r === 0 ? 1 : (choose(n, r - 1) * (n - r + 1)) / r;
    let direct = 0;
    for (let x = 8; x <= 12; x++) direct += (choose(12, x) * choose(8, 12 - x)) / choose(20, 12);
    expect(probabilityEnoughDiffer({ population: 20, differing: 12 }, 12, 8)).toBeCloseTo(
      direct,
      12,
    );
  });
});

describe("documentsForDiffering", () => {
  it.each(reference.cases.filter((c) => c.target !== undefined).map((c) => [name(c), c]))(
    "%s: the smallest K with P ≥ 0.9 is scipy's",
    (_, c) => {
      expect(documentsForDiffering(from(c), c.fewest, c.target as number)).toBe(c.documents_needed);
    },
  );

  it("is null when fewer than 8 documents differ in the whole population", () => {
    expect(documentsForDiffering({ population: 98, differing: 7 }, 8, 0.9)).toBeNull();
    expect(documentsForDiffering({ population: null, share: 0 }, 8, 0.9)).toBeNull();
  });
});

describe("planSample's advice on differing documents (a pair's pilot or census)", () => {
  const needed = (m: number, d: number) =>
    reference.cases.find((c) => c.population === m && c.differing === d && c.target !== undefined)
      ?.documents_needed as number;
  const census = {
    kind: "census" as const,
    file: "covidqa.csv",
    documents: 98,
    sha256: "0",
    difference: { a: "bm25", b: "tfidf", metric: "hit5" },
  };

  it("a census: its own count, M = its K, and scipy's K for 8 with probability 0.9", () => {
    const plan = planSample({
      sd: { macro: 0.0938, micro: 0.068 },
      difference: 0.04,
      population: 98,
      level: 0.95,
      source: census,
      differingDocuments: 39,
    });
    const text = plan.warnings.find((w) => w.startsWith("In the census")) as string;
    expect(text).toContain("39 of 98 documents differ between tfidf and bm25 (39.8%)");
    expect(text).toContain(
      "compare recommends no interval of the difference (and a gate check is inconclusive) when fewer than 8 documents of a sample differ",
    );
    expect(text).toContain(`K ≥ ${needed(98, 39)} holds at least 8 with probability 90%`);
    const below = (["macro", "micro"] as const).filter(
      (e) => (plan[e]?.detect?.documents as number) < needed(98, 39),
    );
    expect(below.length).toBeGreaterThan(0);
    expect(text).toContain(`The K planned above for ${below.join(" and ")} is below it.`);
  });

  it("no advice for one system's plan", () => {
    const plan = planSample({
      sd: { macro: 0.2 },
      halfWidth: 0.05,
      population: 98,
      level: 0.95,
      source: { kind: "census", file: "one.csv", documents: 98, sha256: "0" },
      differingDocuments: 39,
    });
    expect(plan.warnings.some((w) => w.includes("documents differ"))).toBe(false);
  });
});
