import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holmAdjust } from "../../src/core/compare.js";
import { compareSystems, documentStatsFromRows } from "../../src/core/index.js";
import { isRelativelyClose } from "../expectClose.js";

interface Query {
  readonly doc: string;
  readonly a: number;
  readonly b: number;
}

/** 2–12 documents, 1–8 queries each, reciprocal-rank-like scores for two systems. */
const pairedQueries: fc.Arbitrary<Query[]> = fc
  .array(
    fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), {
      minLength: 1,
      maxLength: 8,
    }),
    { minLength: 2, maxLength: 12 },
  )
  .map((docs) =>
    docs.flatMap((queries, d) =>
      queries.map(([x, y]) => ({
        doc: `d${String(d).padStart(2, "0")}`,
        a: x === 0 ? 0 : 1 / x,
        b: y === 0 ? 0 : 1 / y,
      })),
    ),
  );

function comparison(queries: readonly Query[], shift = 0, swap = false) {
  const rows = queries.map((q) => {
    const a = (swap ? q.b : q.a) + shift;
    const b = (swap ? q.a : q.b) + shift;
    return { doc: q.doc, a, b, x: b - a };
  });
  return compareSystems(
    {
      a: { name: "A", stats: documentStatsFromRows(rows, { doc: "doc", metric: "a" }) },
      b: { name: "B", stats: documentStatsFromRows(rows, { doc: "doc", metric: "b" }) },
      difference: documentStatsFromRows(rows, { doc: "doc", metric: "x" }),
      queriesDiffering: rows.filter((r) => r.x !== 0).length,
    },
    { replicates: 0 },
  );
}

const close = (a: number, b: number) => isRelativelyClose(a, b, 1e-12, 1);

describe("paired comparison properties", () => {
  it("swapping A and B negates the difference and keeps every interval width", () => {
    fc.assert(
      fc.property(pairedQueries, (queries) => {
        const x = comparison(queries);
        const y = comparison(queries, 0, true);
        for (const estimand of ["micro", "macro"] as const) {
          expect(
            close(
              x.difference[estimand]?.estimate as number,
              -(y.difference[estimand]?.estimate as number),
            ),
          ).toBe(true);
          const tx = x.tests[estimand];
          const ty = y.tests[estimand];
          if (tx && ty) {
            expect(close(tx.upper - tx.lower, ty.upper - ty.lower)).toBe(true);
            expect(close(tx.lower, -ty.upper)).toBe(true);
          }
        }
        expect(x.ties).toBe(y.ties);
      }),
    );
  });

  it("adding a constant to both systems changes no difference", () => {
    fc.assert(
      fc.property(pairedQueries, fc.double({ min: -3, max: 3, noNaN: true }), (queries, shift) => {
        const x = comparison(queries);
        const y = comparison(queries, shift);
        // Differences of shifted values agree up to the rounding of the shift (~1e-15).
        const near = (u: number, v: number) => Math.abs(u - v) <= 1e-12;
        for (const estimand of ["micro", "macro"] as const) {
          const tx = x.tests[estimand];
          const ty = y.tests[estimand];
          expect(
            near(
              x.difference[estimand]?.estimate as number,
              y.difference[estimand]?.estimate as number,
            ),
          ).toBe(true);
          if (tx && ty) {
            expect(near(tx.lower, ty.lower) && near(tx.upper, ty.upper) && near(tx.se, ty.se)).toBe(
              true,
            );
            expect(Math.abs(tx.df - ty.df)).toBeLessThanOrEqual(1e-9 * tx.df);
          }
        }
        expect(y.difference.documents).toBe(x.difference.documents);
        expect(
          close(
            y.aAnalysis.micro?.estimate as number,
            (x.aAnalysis.micro?.estimate as number) + shift,
          ),
        ).toBe(true);
      }),
    );
  });

  it("identical systems give difference 0, ties 1 and no query differing", () => {
    fc.assert(
      fc.property(pairedQueries, (queries) => {
        const same = queries.map((q) => ({ ...q, b: q.a }));
        const c = comparison(same);
        expect(c.difference.micro?.estimate).toBe(0);
        expect(c.difference.macro?.estimate).toBe(0);
        expect(c.ties).toBe(1);
        expect(c.queriesDiffering).toBe(0);
      }),
    );
  });
});

describe("holmAdjust", () => {
  it("holmAdjust([0.01, 0.04, 0.03]) is [0.03, 0.06, 0.06] (R: p.adjust(c(.01,.04,.03), 'holm'))", () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03]);
    expect(adjusted.map((p) => Number(p.toFixed(15)))).toEqual([0.03, 0.06, 0.06]);
  });
});
