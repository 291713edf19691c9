import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { linearizedEstimates } from "../../../src/core/designs/linearizedEstimates.js";
import { tQuantile } from "../../../src/core/numeric/distributions.js";

describe("linearizedEstimates", () => {
  // Three documents, n = (1, 2, 3), s = (1, 1, 3), weights 1 (total = Σx) and a variance of the
  // total that is Σ z_d², so every number can be worked by hand:
  //   micro R = 5/6; z_d = (s_d − R n_d)/N with N = 6: (1/6, −4/6, 3/6)/6, Σ z² = 26/1296;
  //   macro r̄ = (1 + 1/2 + 1)/3 = 5/6; z_d = (r_d − r̄)/3: (1/6, −2/6, 1/6)/3, Σ z² = 6/324.
  const stats = documentStats({ ids: ["a", "b", "c"], n: [1, 2, 3], s: [1, 1, 3] });
  const sum = (f: (d: number) => number) => f(0) + f(1) + f(2);
  const result = linearizedEstimates(
    stats,
    { total: sum, variance: (z) => sum((d) => z(d) ** 2), documents: 3, df: 2 },
    0.95,
  );

  it("micro is the ratio of estimated totals with the linearised variance", () => {
    expect(result.micro.estimate).toBeCloseTo(5 / 6, 15);
    expect(result.micro.se).toBeCloseTo(Math.sqrt(26 / 1296), 15);
    expect(result.micro.df).toBe(2);
  });

  it("macro is the estimated total of rates over the documents, with its linearised variance", () => {
    expect(result.macro.estimate).toBeCloseTo(5 / 6, 15);
    expect(result.macro.se).toBeCloseTo(Math.sqrt(6 / 324), 15);
  });

  it("each interval is estimate ± t(0.975; ν)·se", () => {
    const t = tQuantile(0.975, 2);
    expect(result.micro.upper - result.micro.estimate).toBeCloseTo(t * result.micro.se, 14);
    expect(result.macro.estimate - result.macro.lower).toBeCloseTo(t * result.macro.se, 14);
  });
});
