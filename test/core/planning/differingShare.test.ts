import quantile from "@stdlib/stats-base-dists-t-quantile";
import { describe, expect, it } from "vitest";
import { planSample } from "../../../src/core/index.js";
import { requiredDocuments } from "../../../src/core/planning/requiredDocuments.js";
import { requiredDocumentsToDetect } from "../../../src/core/planning/requiredDocumentsToDetect.js";

/** The smallest K ≥ 2 with `fits(K)`, by counting up (no bisection, no shared code). */
function smallest(fits: (k: number) => boolean): number {
  let k = 2;
  while (!fits(k)) k++;
  return k;
}

const pilot = (differing: number, documents: number) =>
  ({
    sd: { macro: 0.2 },
    population: 1300,
    level: 0.95,
    source: {
      kind: "pilot",
      file: "pilot.csv",
      documents,
      sha256: "",
      difference: { a: "bm25", b: "tfidf", metric: "hit5" },
    },
    differingDocuments: differing,
  }) as const;

describe("a paired plan's macro ν follows the documents that differ (compare's t-differing)", () => {
  it("K for a half-width: t(0.975; max(1, 0.4·K − 1)) · S/√K · √(1 − K/M) ≤ w, counted up", () => {
    const plan = planSample({ ...pilot(40, 100), halfWidth: 0.05 });
    const want = smallest(
      (k) =>
        quantile(0.975, Math.max(1, 0.4 * k - 1)) *
          (0.2 / Math.sqrt(k)) *
          Math.sqrt(1 - k / 1300) <=
        0.05,
    );
    expect(plan.macro?.documents).toBe(want);
    // Ties cost documents: ν = K − 1 asks for fewer.
    expect(want).toBeGreaterThan(
      requiredDocuments({ sd: 0.2, halfWidth: 0.05, population: 1300, level: 0.95 }),
    );
    expect(plan.warnings.join(" ")).toContain(
      "The macro plan uses ν = max(1, 0.4·K − 1), not K − 1: 40 of the 100 documents of the pilot differ",
    );
  });

  it("K to detect a difference: (t(0.975; ν) + t(0.8; ν)) · S/√K · √(1 − K/M) ≤ d, counted up", () => {
    const plan = planSample({ ...pilot(10, 40), difference: 0.1, power: 0.8 });
    const df = (k: number) => Math.max(1, 0.25 * k - 1);
    const want = smallest(
      (k) =>
        (quantile(0.975, df(k)) + quantile(0.8, df(k))) *
          (0.2 / Math.sqrt(k)) *
          Math.sqrt(1 - k / 1300) <=
        0.1,
    );
    expect(plan.macro?.detect?.documents).toBe(want);
    expect(want).toBe(
      requiredDocumentsToDetect({
        sd: 0.2,
        difference: 0.1,
        power: 0.8,
        population: 1300,
        differingShare: 0.25,
      }),
    );
  });

  it("no ties (D = K) plans as before, and a given S or one system has no share", () => {
    const all = planSample({ ...pilot(100, 100), halfWidth: 0.05 });
    expect(all.macro?.documents).toBe(
      requiredDocuments({ sd: 0.2, halfWidth: 0.05, population: 1300, level: 0.95 }),
    );
    expect(all.warnings.join(" ")).not.toContain("The macro plan uses ν = max");
    const given = planSample({
      sd: { macro: 0.2 },
      population: 1300,
      level: 0.95,
      halfWidth: 0.05,
      source: { kind: "given" },
      differingDocuments: 3,
    });
    expect(given.macro?.documents).toBe(all.macro?.documents);
  });

  it("refuses a share outside [0, 1]", () => {
    expect(() =>
      requiredDocuments({ sd: 0.2, halfWidth: 0.05, population: null, differingShare: 1.5 }),
    ).toThrow("differing share 1.5 must be between 0 and 1");
  });
});
