import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyze,
  bootstrapPercentile,
  bootstrapT,
  documentBootstrap,
  documentStats,
} from "../../../src/core/index.js";

// analyze reads the document bootstrap through its quantiles (documentBootstrapQuantiles, kept
// in the kernel's memory); the library also exports the replicates (documentBootstrap) and the
// intervals over them (bootstrapT, bootstrapPercentile). Both routes give the same intervals.
describe("bootstrapT and bootstrapPercentile over documentBootstrap's replicates", () => {
  it("equal analyze's bootstrap-t and bootstrap-percentile intervals bit for bit", () => {
    let tCompared = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            n: fc.integer({ min: 1, max: 30 }),
            // a rate in hundredths: fc.double's bias to 0 and 1 would leave most draws degenerate
            p: fc.integer({ min: 0, max: 100 }).map((h) => h / 100),
          }),
          { minLength: 2, maxLength: 25 },
        ),
        // at least 39, the fewest a 95% interval takes (replicateLimit.ts)
        fc.integer({ min: 39, max: 600 }),
        fc.nat({ max: 2 ** 31 }),
        fc.constantFrom(0.8, 0.9, 0.95),
        (docs, replicates, seed, level) => {
          const n = docs.map((d) => d.n);
          const stats = documentStats({
            ids: docs.map((_, i) => `d${i}`),
            n,
            s: docs.map((d, i) => Math.round(d.p * (n[i] as number))),
          });
          const analysis = analyze(stats, { replicates, seed, level });
          const b = documentBootstrap(
            stats,
            {
              micro: analysis.micro?.estimate as number,
              macro: analysis.macro?.estimate as number,
            },
            { replicates, seed },
          );
          const degenerate = b.degenerateCount / replicates;
          for (const e of ["micro", "macro"] as const) {
            const reported = analysis[e]?.intervals ?? {};
            const t = reported["bootstrap-t"];
            if (t?.available) {
              tCompared++;
              expect(
                bootstrapT({
                  estimate: analysis[e]?.estimate as number,
                  se: t.se as number,
                  studentised: e === "micro" ? b.microT : b.macroT,
                  degenerate: b.degenerate,
                  level,
                  seed,
                }),
              ).toStrictEqual(t);
            }
            expect(
              bootstrapPercentile(e === "micro" ? b.micro : b.macro, level, { seed, degenerate }),
            ).toStrictEqual(reported["bootstrap-percentile"]);
          }
        },
      ),
      { numRuns: 60 },
    );
    // of the 120 (draw, estimand) pairs, most have a bootstrap-t interval to compare
    expect(tCompared).toBeGreaterThan(60);
  });
});
