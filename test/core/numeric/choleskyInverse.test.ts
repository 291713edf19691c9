/** choleskyInverse against the identity: A · A⁻¹ = I for random SPD matrices A = MᵀM + I. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { choleskyInverse } from "../../../src/core/numeric/choleskyInverse.js";

describe("choleskyInverse", () => {
  it("gives A⁻¹ with A · A⁻¹ = I (to 1e-10) for random symmetric positive-definite A", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(fc.integer({ min: -1000, max: 1000 }), {
              minLength: n * n,
              maxLength: n * n,
            }),
          ),
        ),
        ([n, entries]) => {
          const m = entries.map((e) => e / 100);
          const a = new Float64Array(n * n);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) {
              let s = i === j ? 1 : 0;
              for (let k = 0; k < n; k++) s += (m[k * n + i] as number) * (m[k * n + j] as number);
              a[i * n + j] = s;
            }
          const inverse = new Float64Array(n * n);
          choleskyInverse(a, n, inverse, new Float64Array(n * n));
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) {
              let s = 0;
              for (let k = 0; k < n; k++)
                s += (a[i * n + k] as number) * (inverse[k * n + j] as number);
              expect(Math.abs(s - (i === j ? 1 : 0))).toBeLessThan(1e-10);
            }
        },
      ),
      { numRuns: 200, seed: 28 },
    );
  });

  it("refuses a matrix that is not positive definite", () => {
    const a = Float64Array.of(1, 2, 2, 1);
    expect(() => choleskyInverse(a, 2, new Float64Array(4), new Float64Array(4))).toThrow(
      /pivot 1/,
    );
  });
});
