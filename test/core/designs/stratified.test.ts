import { describe, expect, it } from "vitest";
import type { LonelyPsu } from "../../../src/core/designs/lonelyPsu.js";
import { documentStats, RagciError, stratifiedEstimates } from "../../../src/core/index.js";
import { expectRelativelyClose } from "../../expectClose.js";

// Seven documents in four strata: a (3 of 10), b (1 of 40: a lonely PSU), c (2 of 5) and
// e (1 of 1: a certainty stratum, sampled fully).
const stats = documentStats({
  ids: ["d1", "d2", "d3", "d4", "d5", "d6", "d7"],
  n: [4, 10, 3, 8, 6, 2, 5],
  s: [1, 7, 3, 2, 3, 1, 4],
});
const strata = ["a", "a", "a", "b", "c", "c", "e"];
const populationSizes = { a: 10, b: 40, c: 5, e: 1 };
const under = (lonelyPsu: LonelyPsu) =>
  stratifiedEstimates(stats, { strata, populationSizes, lonelyPsu });

// R 4.2.2, survey 4.1.1 (sprintf("%.17g")):
//   options(survey.lonely.psu = RULE)
//   des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~Mh, data = pd)   # pd: the rows above
//   SE(svyratio(~s, ~n, des)); SE(svymean(~r, des)); degf(des)              # degf 3 every rule
const R_SE = {
  remove: { micro: 0.024662366315932729, macro: 0.032561754515732975 },
  certainty: { micro: 0.024662366315932729, macro: 0.032561754515732975 },
  adjust: { micro: 0.064172513178573323, macro: 0.079977642908905966 },
  average: { micro: 0.02847764766271384, macro: 0.037599075469889894 },
} as const;

describe("stratifiedEstimates with a stratum of one sampled document", () => {
  it('under "fail" (the default) throws invalid-design naming the stratum, its M_h and the option', () => {
    let thrown: unknown;
    try {
      stratifiedEstimates(stats, { strata, populationSizes });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RagciError);
    const error = thrown as RagciError;
    expect(error.code).toBe("invalid-design");
    expect(error.context.stratum).toBe("b");
    expect(error.message).toBe(
      'stratum "b" has one sampled document of M_h = 40, which cannot give a variance; sample at least two, merge it with a neighbouring stratum, or choose a lonely-PSU rule (`lonelyPsu` or "lonely_psu" in the design: remove, adjust, average or certainty)',
    );
    expect(error.message).not.toContain("\n");
    expect(() => under("fail")).toThrow(/stratum "b" has one sampled document/);
  });

  it('under "fail" accepts a certainty stratum (one document, M_h = 1): it adds 0, as in survey', () => {
    // The same data without stratum b. R 4.2.2, survey 4.1.1, survey.lonely.psu = "fail":
    // svyratio 0.62040816326530612 (SE 0.085014195289610961), svymean 0.61250000000000004
    // (SE 0.11396614080506542), degf 3.
    const withoutB = documentStats({
      ids: ["d1", "d2", "d3", "d5", "d6", "d7"],
      n: [4, 10, 3, 6, 2, 5],
      s: [1, 7, 3, 3, 1, 4],
    });
    const result = stratifiedEstimates(withoutB, {
      strata: ["a", "a", "a", "c", "c", "e"],
      populationSizes,
    });
    const close = (actual: number, expected: number) =>
      expectRelativelyClose(actual, expected, { rel: 1e-12 });
    close(result.micro.estimate, 0.62040816326530612);
    close(result.micro.se, 0.085014195289610961);
    close(result.macro.estimate, 0.61250000000000004);
    close(result.macro.se, 0.11396614080506542);
    expect(result.micro.df).toBe(3);
  });

  it.each(["remove", "certainty", "adjust", "average"] as const)(
    'under "%s" equals R survey (se to 1e-12, ν = K − H = 3)',
    (rule) => {
      const result = under(rule);
      for (const estimand of ["micro", "macro"] as const) {
        const expected = R_SE[rule][estimand];
        expect(Math.abs(result[estimand].se - expected)).toBeLessThanOrEqual(1e-12 * expected);
        expect(result[estimand].df).toBe(3);
      }
    },
  );

  it('"remove" and "certainty" give the same numbers; the estimate does not depend on the rule', () => {
    expect(under("certainty")).toEqual(under("remove"));
    for (const rule of ["adjust", "average"] as const) {
      expect(under(rule).micro.estimate).toBe(under("remove").micro.estimate);
      expect(under(rule).macro.estimate).toBe(under("remove").macro.estimate);
    }
  });

  it('"adjust" adds (1 − 1/M_h)·(M_h·z_d)² to the "remove" variance; "average" scales it by H/(H − 1)', () => {
    const removed = under("remove");
    const adjusted = under("adjust");
    const averaged = under("average");
    // Micro z_d = (s_d − R_c n_d)/N̂ and macro z_d = (r_d − r̄)/M for d4, the one document of b.
    const weights = [10 / 3, 10 / 3, 10 / 3, 40, 5 / 2, 5 / 2, 1];
    const total = (x: (d: number) => number) => weights.reduce((a, w, d) => a + w * x(d), 0);
    const n = [4, 10, 3, 8, 6, 2, 5];
    const s = [1, 7, 3, 2, 3, 1, 4];
    const nHat = total((d) => n[d] as number);
    const ratio = total((d) => s[d] as number) / nHat;
    const mean = total((d) => (s[d] as number) / (n[d] as number)) / 56;
    const zMicro = (2 - ratio * 8) / nHat;
    const zMacro = (2 / 8 - mean) / 56;
    const lonely = (z: number) => (1 - 1 / 40) * (40 * z) ** 2;
    expect(adjusted.micro.se ** 2).toBeCloseTo(removed.micro.se ** 2 + lonely(zMicro), 14);
    expect(adjusted.macro.se ** 2).toBeCloseTo(removed.macro.se ** 2 + lonely(zMacro), 14);
    // H = 4 strata (e, a census, counts), 3 of them with a variance.
    expect(averaged.micro.se ** 2).toBeCloseTo((removed.micro.se ** 2 * 4) / 3, 14);
    expect(averaged.macro.se ** 2).toBeCloseTo((removed.macro.se ** 2 * 4) / 3, 14);
  });

  it("keeps today's numbers when no stratum has one document, whatever the rule", () => {
    const design = {
      strata: ["h", "h", "g", "g", "g", "h", "g"],
      populationSizes: { h: 9, g: 30 },
    };
    const fail = stratifiedEstimates(stats, design);
    for (const rule of ["remove", "adjust", "average", "certainty"] as const)
      expect(stratifiedEstimates(stats, { ...design, lonelyPsu: rule })).toEqual(fail);
  });

  it("throws when every stratum has one document (ν = K − H = 0)", () => {
    const two = documentStats({ ids: ["x", "y"], n: [3, 4], s: [1, 2] });
    expect(() =>
      stratifiedEstimates(two, {
        strata: ["p", "q"],
        populationSizes: { p: 5, q: 1 },
        lonelyPsu: "adjust",
      }),
    ).toThrow(/every stratum has one sampled document, so ν = K − H = 0/);
  });

  it("rejects an unknown rule (a library caller without the types)", () => {
    expect(() =>
      stratifiedEstimates(stats, {
        strata,
        populationSizes,
        lonelyPsu: "collapse" as LonelyPsu,
      }),
    ).toThrow(/lonely-PSU rule "collapse" must be one of fail, remove, adjust, average, certainty/);
  });
});
