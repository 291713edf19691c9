/**
 * test/fixtures/reference/planning.expected.json: smallest K ≥ 2 with t(0.975, K−1)·S/√K·√(1−K/M)
 * ≤ w, quantiles from mpmath at 40 digits (planning.py); and each case's S_macro / S_micro.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentStats, pilotStandardDeviations } from "../../../src/core/index.js";
import { planningHalfWidth } from "../../../src/core/planning/planningHalfWidth.js";
import { halfWidthCurve, requiredDocuments } from "../../../src/core/planning/requiredDocuments.js";
import { requiredDocumentsToDetect } from "../../../src/core/planning/requiredDocumentsToDetect.js";

const dir = new URL("../../fixtures/reference/", import.meta.url);
const planning = JSON.parse(readFileSync(new URL("planning.expected.json", dir), "utf8"));

describe("requiredDocuments", () => {
  it("requiredDocuments({ sd: 0.224, halfWidth: 0.05, population: 1300 }) is 76, and 80 without fpc (SPEC §7)", () => {
    expect(requiredDocuments({ sd: 0.224, halfWidth: 0.05, population: 1300 })).toBe(76);
    expect(requiredDocuments({ sd: 0.224, halfWidth: 0.05 })).toBe(80);
    expect(requiredDocuments({ sd: 0.412, halfWidth: 0.05, population: 1300 })).toBe(220);
    expect(requiredDocuments({ sd: 0.412, halfWidth: 0.05 })).toBe(264);
  });

  it.each(
    planning.grid as {
      S: number;
      w: number;
      M: number | null;
      K: number;
      half_width_at_K: number;
      half_width_at_K_minus_1: number;
    }[],
  )(
    "S = $S, w = $w, M = $M gives K = $K with the reference half-widths at K and K − 1",
    ({ S, w, M, K, half_width_at_K, half_width_at_K_minus_1 }) => {
      expect(requiredDocuments({ sd: S, halfWidth: w, population: M })).toBe(K);
      const at = (k: number) => planningHalfWidth({ sd: S, population: M, documents: k });
      expect(Math.abs(at(K) - half_width_at_K)).toBeLessThanOrEqual(1e-12 * half_width_at_K);
      if (K > 2)
        expect(Math.abs(at(K - 1) - half_width_at_K_minus_1)).toBeLessThanOrEqual(
          1e-12 * half_width_at_K_minus_1,
        );
    },
  );

  it("is 2 when S = 0 and never more than M", () => {
    expect(requiredDocuments({ sd: 0, halfWidth: 0.01 })).toBe(2);
    expect(requiredDocuments({ sd: 5, halfWidth: 0.001, population: 40 })).toBe(40);
  });

  it("halfWidthCurve gives the half-width with and without fpc at each K", () => {
    const [row] = halfWidthCurve({ sd: 0.224, population: 1300, documents: [76] });
    expect(row?.halfWidth).toBeLessThanOrEqual(0.05);
    expect(row?.halfWidthWithoutFpc).toBeGreaterThan(0.05);
  });
});

describe("pilotStandardDeviations", () => {
  it.each(["k5_binary", "rr10_scores", "paired_ties_rr", "two_stage_types"])(
    "%s: S_macro = sd(r_d) and S_micro = sd(u_d)/n̄ as in the reference",
    (name) => {
      const e = JSON.parse(readFileSync(new URL(`${name}.expected.json`, dir), "utf8"));
      const p = e.per_document;
      const s = pilotStandardDeviations(
        documentStats({ ids: p.doc_id, n: p.n, s: p.s, ss: p.ss, binary: false }),
      );
      expect(Math.abs(s.macro - e.planning.S_macro)).toBeLessThanOrEqual(
        1e-12 * e.planning.S_macro,
      );
      expect(Math.abs(s.micro - e.planning.S_micro)).toBeLessThanOrEqual(
        1e-12 * e.planning.S_micro,
      );
      for (const row of e.planning.rows) {
        expect(requiredDocuments({ sd: s.macro, halfWidth: row.w })).toBe(row.macro_without_fpc);
        expect(requiredDocuments({ sd: s.micro, halfWidth: row.w })).toBe(row.micro_without_fpc);
      }
    },
  );
});

describe("requiredDocumentsToDetect", () => {
  it("with power 0.5 equals the half-width rule with w = |d|", () => {
    expect(
      requiredDocumentsToDetect({ sd: 0.224, difference: -0.05, power: 0.5, population: 1300 }),
    ).toBe(76);
  });
  it("needs more documents for 80% power than for 50%", () => {
    const k = requiredDocumentsToDetect({ sd: 0.18, difference: 0.03 });
    // normal approximation: ((1.96 + 0.8416)·0.18/0.03)² ≈ 282.6
    expect(k).toBeGreaterThan(282);
    expect(k).toBeLessThan(290);
  });
});
