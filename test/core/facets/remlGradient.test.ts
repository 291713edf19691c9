/**
 * The analytic θ-gradient of lme4's REML pieces (remlGradient) against central differences
 * (one Richardson step) of the pieces themselves, over random small unbalanced layouts with
 * and without queries, judges and wordings, at random θ (either sign, some exactly 0).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { facetLayout } from "../../../src/core/facets/facetLayout.js";
import {
  cellMeanCentre,
  profiledReml,
  remlPieces,
} from "../../../src/core/facets/remlCriterion.js";
import {
  profiledRemlGradient,
  remlPiecesAndGradient,
} from "../../../src/core/facets/remlGradient.js";
import { gradient } from "../../../src/core/numeric/finiteDifferences.js";
import { cellsFromRows, type DesignSpec, trialRows } from "./facetData.js";

const spec: fc.Arbitrary<DesignSpec> = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  documents: fc.integer({ min: 2, max: 6 }),
  queries: fc.constantFrom<DesignSpec["queries"]>(1, 2, [1, 3] as const),
  judges: fc.constantFrom(0, 2, 3),
  variants: fc.constantFrom(0, 2),
  trials: fc.constantFrom<DesignSpec["trials"]>(1, 2, [1, 3] as const),
  missing: fc.constantFrom(0, 0.2, 0.4),
  binary: fc.boolean(),
  sd: fc.constant({
    document: 0.6,
    query: 0.4,
    judge: 0.5,
    documentJudge: 0.3,
    variant: 0.3,
    residual: 0.5,
  }),
});

/** θ_k in [−2, 2] in steps of 0.01 (fc.double favours subnormals), exactly 0 one time in five. */
const theta = fc.oneof(
  { arbitrary: fc.integer({ min: -200, max: 200 }).map((i) => i / 100), weight: 4 },
  { arbitrary: fc.constant(0), weight: 1 },
);

/** Each coordinate of the analytic derivative within 1e-6 of the difference quotient's scale. */
function expectGradient(analytic: ArrayLike<number>, numeric: ArrayLike<number>, label: string) {
  for (let i = 0; i < numeric.length; i++) {
    const a = analytic[i] as number;
    const n = numeric[i] as number;
    expect(Math.abs(a - n), `${label}[${i}]: ${a} vs ${n}`).toBeLessThanOrEqual(
      1e-6 * Math.max(1, Math.abs(n)),
    );
  }
}

describe("remlPiecesAndGradient", () => {
  it("has the θ-derivatives of log|Ã|, prss, R_X² and the profiled criterion that central differences give", () => {
    fc.assert(
      fc.property(spec, fc.array(theta, { minLength: 5, maxLength: 5 }), (design, thetas) => {
        const cells = cellsFromRows(trialRows(design));
        const layout = facetLayout(cells);
        const centre = cellMeanCentre(layout);
        const theta = Float64Array.from(layout.components, (_, i) => thetas[i] as number);
        const { pieces, gradient: g } = remlPiecesAndGradient(layout, theta, centre);
        const at = (x: Float64Array) => remlPieces(layout, x, centre);
        // All outcomes equal (small binary draws): no criterion to differentiate.
        fc.pre(pieces.prss > 1e-9);
        // The value is the same computation as remlPieces.
        expect(pieces).toEqual(at(theta));
        expectGradient(
          g.logDet,
          gradient((x) => {
            const p = at(x);
            return p.logDetL + p.logRx2;
          }, theta),
          "log|Ã|",
        );
        expectGradient(
          g.prss,
          gradient((x) => at(x).prss, theta),
          "prss",
        );
        expectGradient(
          g.rx2,
          gradient((x) => at(x).rx2, theta),
          "R_X²",
        );
        expectGradient(
          profiledRemlGradient(layout, pieces, g),
          gradient((x) => profiledReml(layout, at(x)), theta),
          "profiled REML",
        );
      }),
      { numRuns: 150, seed: 28 },
    );
  });
});
