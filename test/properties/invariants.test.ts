import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyze,
  cr1,
  cr2,
  documentStats,
  macroEstimate,
  macroT,
  mergeDocumentStats,
  microEstimate,
} from "../../src/core/index.js";
import { binaryDocuments, equalSizeDocuments, relativeClose, toStats } from "./arbitraries.js";

describe("equal document sizes", () => {
  it("cr2(stats).se equals cr1(stats).se and ν = K − 1", () => {
    fc.assert(
      fc.property(equalSizeDocuments, (docs) => {
        const stats = toStats(docs);
        const a = cr1(stats);
        const b = cr2(stats);
        expect(relativeClose(a.se, b.se, 1e-12)).toBe(true);
        expect(relativeClose(b.df as number, docs.n.length - 1, 1e-12)).toBe(true);
      }),
    );
  });

  it("microEstimate(stats) equals macroEstimate(stats), and the macro t se equals cr1's", () => {
    fc.assert(
      fc.property(equalSizeDocuments, (docs) => {
        const stats = toStats(docs);
        expect(relativeClose(microEstimate(stats), macroEstimate(stats), 1e-13)).toBe(true);
        expect(relativeClose(macroT(stats).se, cr1(stats).se, 1e-9)).toBe(true);
      }),
    );
  });
});

describe("permutation of documents", () => {
  it("changes no estimate, se, ν or interval of analyze(stats)", () => {
    fc.assert(
      fc.property(
        binaryDocuments.chain((docs) =>
          fc.tuple(
            fc.constant(docs),
            fc.shuffledSubarray(
              docs.n.map((_, i) => i),
              { minLength: docs.n.length, maxLength: docs.n.length },
            ),
          ),
        ),
        ([docs, order]) => {
          const identity = docs.n.map((_, i) => i);
          const a = analyze(toStats(docs, identity), { replicates: 200 });
          const b = analyze(toStats(docs, order), { replicates: 200 });
          for (const estimand of ["micro", "macro"] as const) {
            const x = a[estimand];
            const y = b[estimand];
            expect(relativeClose(x?.estimate as number, y?.estimate as number, 1e-12)).toBe(true);
            for (const [method, interval] of Object.entries(x?.intervals ?? {})) {
              // Resampling draws document positions from a fixed stream, so its intervals
              // depend on the order; ragci always orders documents by id (see the CLI tests).
              if (interval?.resampling) continue;
              const other = y?.intervals[method as "t"];
              if (!interval?.available || !other?.available) {
                expect(other?.available).toBe(interval?.available);
                continue;
              }
              expect(
                relativeClose(interval.lower, other.lower, 1e-9),
                `${estimand} ${method} lower`,
              ).toBe(true);
              expect(
                relativeClose(interval.upper, other.upper, 1e-9),
                `${estimand} ${method} upper`,
              ).toBe(true);
              if (interval.df !== null)
                expect(relativeClose(interval.df, other.df as number, 1e-10)).toBe(true);
            }
          }
          expect(
            relativeClose(a.diagnostics.designEffect.deff, b.diagnostics.designEffect.deff, 1e-10),
          ).toBe(true);
        },
      ),
    );
  });
});

describe("shards", () => {
  it("splitting results into shards and merging the aggregates gives the same analysis", () => {
    fc.assert(
      fc.property(
        binaryDocuments.chain((docs) =>
          fc.tuple(
            fc.constant(docs),
            // For each document, how many of its results (and hits) go to shard 1.
            fc.tuple(
              ...docs.n.map((n, d) =>
                fc.integer({ min: 0, max: n }).chain((k) =>
                  fc.tuple(
                    fc.constant(k),
                    fc.integer({
                      min: Math.max(0, (docs.s[d] as number) - (n - k)),
                      max: Math.min(k, docs.s[d] as number),
                    }),
                  ),
                ),
              ),
            ),
          ),
        ),
        ([docs, split]) => {
          const whole = toStats(docs);
          const shard = (first: boolean) => {
            const ids: string[] = [];
            const n: number[] = [];
            const s: number[] = [];
            docs.n.forEach((nd, d) => {
              const [k, hits] = split[d] as [number, number];
              const count = first ? k : nd - k;
              if (count === 0) return;
              ids.push(whole.ids[d] as string);
              n.push(count);
              s.push(first ? hits : (docs.s[d] as number) - hits);
            });
            return documentStats({ ids, n, s });
          };
          const merged = mergeDocumentStats([shard(true), shard(false)]);
          expect(merged.ids).toEqual(whole.ids);
          expect(Array.from(merged.n)).toEqual(Array.from(whole.n));
          expect(Array.from(merged.s)).toEqual(Array.from(whole.s));
          expect(analyze(merged, { replicates: 200 })).toEqual(analyze(whole, { replicates: 200 }));
        },
      ),
    );
  });
});

describe("inputs are not modified", () => {
  it("analyze(stats) leaves the arrays it is given untouched", () => {
    fc.assert(
      fc.property(binaryDocuments, (docs) => {
        const stats = toStats(docs);
        const before = [Array.from(stats.n), Array.from(stats.s), Array.from(stats.ss)];
        analyze(stats, { population: docs.n.length + 5, replicates: 50 });
        expect([Array.from(stats.n), Array.from(stats.s), Array.from(stats.ss)]).toEqual(before);
      }),
    );
  });
});

describe("finite population correction", () => {
  it("multiplies the t, cr1 and cr2 variances by (1 − K/M) and leaves ν alone", () => {
    fc.assert(
      fc.property(binaryDocuments, fc.integer({ min: 0, max: 1000 }), (docs, extra) => {
        const stats = toStats(docs);
        const k = docs.n.length;
        const population = k + extra;
        const a = analyze(stats, { replicates: 0 });
        const b = analyze(stats, { population, replicates: 0 });
        const factor = Math.sqrt(1 - k / population);
        for (const [estimand, method] of [
          ["micro", "cr2"],
          ["micro", "cr1"],
          ["macro", "t"],
        ] as const) {
          const x = a[estimand]?.intervals[method];
          const y = b[estimand]?.intervals[method];
          if (!x?.available || !y?.available) throw new Error("interval missing");
          expect(relativeClose((x.se as number) * factor, y.se as number, 1e-12)).toBe(true);
          expect(y.df).toBe(x.df);
        }
      }),
    );
  });
});
