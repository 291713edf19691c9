/**
 * docs/library.md's table of values that "ragci" does not export because another export gives
 * them: each row's public route is compared with the module function it stands for (imported by
 * path; those functions are ragci's own and keep their own tests).
 */
import { describe, expect, it } from "vitest";
import { holmAdjust } from "../../src/core/compare.js";
import { diagnose } from "../../src/core/diagnostics/diagnose.js";
import { isRagciError } from "../../src/core/errors.js";
import { criticalValue } from "../../src/core/intervals/tInterval.js";
import { halfWidthCurve, requiredDocuments } from "../../src/core/planning/requiredDocuments.js";
import { requiredDocumentsToDetect } from "../../src/core/planning/requiredDocumentsToDetect.js";
import { cr2DegreesOfFreedom } from "../../src/core/variance/cr2DegreesOfFreedom.js";
import * as ragci from "../../src/index.js";
import {
  adjustComparisons,
  analyze,
  type Comparison,
  cr2,
  documentStats,
  icc,
  kishDeff,
  planSample,
  RagciError,
  tInterval,
  waldIid,
} from "../../src/index.js";

// Unequal sizes and rates, so that ν, the ICC and the influence are not special values.
const stats = documentStats({
  ids: ["a", "b", "c", "d", "e", "f"],
  n: [2, 3, 5, 4, 9, 1],
  s: [1, 3, 2, 1, 6, 0],
});

describe("what 'ragci' leaves out, reached through what it exports", () => {
  it("leaves the eight out of 'ragci'", () => {
    const names = [
      "cr2DegreesOfFreedom",
      "criticalValue",
      "holmAdjust",
      "requiredDocuments",
      "requiredDocumentsToDetect",
      "halfWidthCurve",
      "diagnose",
      "isRagciError",
    ];
    expect(names.filter((name) => name in ragci)).toEqual([]);
  });

  it("cr2(stats).df is cr2DegreesOfFreedom(stats)", () => {
    const df = cr2(stats).df;
    expect(df).toBe(cr2DegreesOfFreedom(stats));
    expect(df).not.toBe(stats.n.length - 1);
  });

  it("tInterval(…).q is criticalValue(level, ν), t or normal", () => {
    for (const [level, df] of [
      [0.95, 3],
      [0.9, 2.6661],
      [0.99, 40],
      [0.95, null],
    ] as const) {
      expect(tInterval(0.5, { se: 0.1, df }, level).q).toBe(criticalValue(level, df));
    }
  });

  it("adjustComparisons(…).holm is holmAdjust of the comparisons' p-values", () => {
    const ps = [0.01, 0.04, 0.03, 0.2];
    // Comparisons cut to the fields adjustComparisons reads (its @example does the same).
    const comparisons = ps.map(
      (p, i) =>
        ({
          a: "base",
          b: `s${i}`,
          tests: { micro: { p }, macro: { p: p / 2 } },
          aAnalysis: {},
          bAnalysis: {},
        }) as unknown as Comparison,
    );
    const { holm } = adjustComparisons(comparisons, "baseline", 0.95);
    expect(holm.map((h) => h.micro)).toEqual(holmAdjust(ps));
    expect(holm.map((h) => h.macro)).toEqual(holmAdjust(ps.map((p) => p / 2)));
    expect(holmAdjust(ps)).not.toEqual(ps);
  });

  it("planSample's documents, detect.documents and curve are requiredDocuments, requiredDocumentsToDetect and halfWidthCurve", () => {
    const common = { sd: 0.224, population: 1300, level: 0.9 };
    const curve = [10, 40, 160];
    const plan = planSample({
      sd: { macro: common.sd },
      halfWidth: 0.05,
      difference: 0.04,
      power: 0.8,
      population: common.population,
      level: common.level,
      curve,
      source: { kind: "given" },
    }).macro;
    expect(plan?.documents).toBe(requiredDocuments({ ...common, halfWidth: 0.05 }));
    expect(plan?.detect?.documents).toBe(
      requiredDocumentsToDetect({ ...common, difference: 0.04, power: 0.8 }),
    );
    expect(plan?.curve).toEqual(halfWidthCurve({ ...common, documents: curve }));
  });

  it("analyze(stats).diagnostics is diagnose(stats, …) with the analysis' cr2, wald-iid, ICC and DEFF", () => {
    const correlation = icc(stats);
    const expected = diagnose(stats, {
      microCr2: cr2(stats),
      microWaldIid: waldIid(stats),
      icc: correlation,
      designEffect: kishDeff(stats, correlation.available ? correlation.icc : 0),
    });
    expect(analyze(stats, { replicates: 0 }).diagnostics).toEqual(expected);
    expect(analyze(stats, { replicates: 0, population: 40 }).diagnostics).toEqual(expected);
  });

  it("instanceof RagciError is isRagciError, and the library's refusals are RagciErrors", () => {
    const values = [
      new RagciError("invalid-option", "level 2 must be in (0, 1)"),
      new Error("not ragci's"),
      { name: "RagciError", message: "a look-alike" },
      "RagciError",
      null,
    ];
    expect(values.map((v) => v instanceof RagciError)).toEqual(values.map(isRagciError));
    expect(() => analyze({ ids: ["a"], n: [2], s: [1] })).toThrow(RagciError);
  });
});
