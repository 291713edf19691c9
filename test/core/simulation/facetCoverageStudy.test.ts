/**
 * The faceted coverage study (src/core/simulation/facet*.ts): evaluations drawn from a model
 * with documents, queries, judges and reruns, every faceted interval scored against the
 * model's population mean. The setting (judge sd 0.5 on the logit scale, 3 judges,
 * 30 documents, as in bench/facets-coverage.mjs) at a modest seeded size: thresholds sit
 * well away from the seeded results (MC se ≈ 2.4 points at 100 repetitions), so the tests
 * check the ordering, not a lucky draw.
 */
import { describe, expect, it } from "vitest";
import { facetInterval } from "../../../src/core/facets/facetInterval.js";
import { expit } from "../../../src/core/numeric/distributions.js";
import { uniformSource } from "../../../src/core/numeric/uniform.js";
import {
  facetCoverageStudy,
  facetRepetition,
} from "../../../src/core/simulation/facetCoverageStudy.js";
import { facetEvaluation, normalFrom } from "../../../src/core/simulation/facetEvaluation.js";
import {
  facetModelComponents,
  facetModelTruth,
  type LogitNormalFacetModel,
  logitNormalFromComponents,
} from "../../../src/core/simulation/facetModel.js";
import { facetPilotSetup, facetPilotStudy } from "../../../src/core/simulation/facetPilotStudy.js";

const judgesModel = (judge: number): LogitNormalFacetModel => ({
  kind: "logit-normal",
  intercept: 0,
  sds: { document: 0.5, query: 0.5, judge },
});
const DESIGN = { documents: 30, queries: 4, trials: 1, judges: 3, variants: 1 };

/** E[expit(s Z)] on a fine grid, independently of the module's quadrature. */
function meanExpit(shift: number, s: number): number {
  let total = 0;
  let weight = 0;
  for (let i = -4000; i <= 4000; i++) {
    const z = i / 500;
    const w = Math.exp((-z * z) / 2);
    total += w * expit(shift + s * z);
    weight += w;
  }
  return total / weight;
}

describe("the generating models", () => {
  it("the logit-normal truth is E[expit(α + S Z)] with S² the sum of the logit variances", () => {
    const model = { ...judgesModel(0.5), intercept: 0.7 };
    expect(facetModelTruth(model)).toBeCloseTo(meanExpit(0.7, Math.sqrt(0.75)), 9);
    expect(facetModelTruth({ kind: "gaussian", mean: 0.42, variances: { document: 1 } })).toBe(
      0.42,
    );
  });

  it("the judge component is Var_c E[y | c]: recomputed by brute-force quadrature", () => {
    const model = { ...judgesModel(0.5), intercept: 0.7 };
    // E[y | c] = E[expit(α + c + rest·Z)], rest² = 0.5; Var over c ~ N(0, 0.25).
    let m1 = 0;
    let m2 = 0;
    let weight = 0;
    for (let i = -400; i <= 400; i++) {
      const z = i / 50;
      const w = Math.exp((-z * z) / 2);
      const g = meanExpit(0.7 + 0.5 * z, Math.sqrt(0.5));
      m1 += w * g;
      m2 += w * g * g;
      weight += w;
    }
    const judge = m2 / weight - (m1 / weight) ** 2;
    expect(facetModelComponents(model).judge).toBeCloseTo(judge, 7);
  });

  it("calibration recovers the logit sds from the components they imply", () => {
    const model: LogitNormalFacetModel = {
      kind: "logit-normal",
      intercept: -0.8,
      sds: { document: 0.9, query: 0.4, judge: 0.6, documentJudge: 0.3 },
    };
    const back = logitNormalFromComponents(facetModelTruth(model), facetModelComponents(model));
    expect(back.intercept).toBeCloseTo(-0.8, 3);
    for (const [k, sd] of Object.entries(model.sds))
      expect(back.sds[k as keyof typeof model.sds]).toBeCloseTo(sd, 2);
  });

  it("a generated evaluation is balanced, 0/1 for the logit-normal model, Gaussian within cells", () => {
    const cells = facetEvaluation(
      judgesModel(0.5),
      { ...DESIGN, trials: 3 },
      uniformSource(5, [0, 2]),
    );
    expect(cells.n.length).toBe(30 * 4 * 3);
    expect([...cells.n].every((n) => n === 3)).toBe(true);
    for (let c = 0; c < cells.n.length; c++) {
      const s = cells.sum[c] as number;
      expect(Number.isInteger(s) && s >= 0 && s <= 3).toBe(true);
      expect(cells.withinSumOfSquares[c]).toBeCloseTo(s - (s * s) / 3, 12);
    }
    const gaussian = facetEvaluation(
      { kind: "gaussian", mean: 2, variances: { document: 1, residual: 4 } },
      { documents: 400, queries: 1, trials: 5, judges: 1, variants: 1 },
      uniformSource(6, [0, 2]),
    );
    expect(gaussian.judge).toBeNull();
    let within = 0;
    for (const w of gaussian.withinSumOfSquares) within += w;
    // Σ W / Σ (n − 1) estimates the trial variance 4 (1,600 degrees of freedom: se ≈ 0.14).
    expect(within / (400 * 4)).toBeGreaterThan(3.5);
    expect(within / (400 * 4)).toBeLessThan(4.5);
  });

  it("Box–Muller normals have mean 0 and variance 1", () => {
    const normal = normalFrom(uniformSource(7));
    let m1 = 0;
    let m2 = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const z = normal();
      m1 += z / n;
      m2 += (z * z) / n;
    }
    expect(Math.abs(m1)).toBeLessThan(0.03);
    expect(Math.abs(m2 - 1)).toBeLessThan(0.04);
  });
});

describe("coverage of the faceted intervals (issue 28's setting)", () => {
  it("judges drawn from a population (sd 0.5): the recommended interval covers, document-only does not", () => {
    const study = facetCoverageStudy(judgesModel(0.5), DESIGN, {
      reps: 100,
      seed: 20261206,
      level: 0.95,
    });
    const { population, fixed, reml, spread } = study.intervals;
    console.log(
      `judge sd 0.5: population ${population?.coverage} (${population?.meanWidth}), REML ${reml?.coverage}, spread ${spread?.coverage}, documents only ${fixed?.coverage} (${fixed?.meanWidth})`,
    );
    expect(study.recommended).toBe("population");
    expect(study.truth).toBeCloseTo(meanExpit(0, Math.sqrt(0.75)), 9);
    expect(population?.coverage).toBeGreaterThanOrEqual(0.9);
    expect(fixed?.coverage).toBeLessThanOrEqual(0.85);
    // The union is never narrower than either part.
    expect(population?.meanWidth).toBeGreaterThanOrEqual(reml?.meanWidth as number);
    expect(population?.meanWidth).toBeGreaterThanOrEqual(spread?.meanWidth as number);
    expect(population?.coverage).toBeGreaterThanOrEqual(reml?.coverage as number);
    // Coverage and misses add up; the MC se is √(p(1 − p)/R).
    const p = population?.coverage as number;
    expect(p + (population?.missBelow ?? 0) + (population?.missAbove ?? 0)).toBeCloseTo(1, 12);
    expect(population?.mcse).toBeCloseTo(Math.sqrt((p * (1 - p)) / 100), 12);
  }, 120_000);

  it("judges alike (sd 0): both estimands coincide and both intervals cover", () => {
    const study = facetCoverageStudy(judgesModel(0), DESIGN, {
      reps: 50,
      seed: 11,
      level: 0.95,
    });
    const { population, fixed } = study.intervals;
    console.log(
      `judge sd 0: population ${population?.coverage}, documents only ${fixed?.coverage}`,
    );
    expect(study.truth).toBeCloseTo(meanExpit(0, Math.sqrt(0.5)), 9);
    expect(population?.coverage).toBeGreaterThanOrEqual(0.9);
    expect(fixed?.coverage).toBeGreaterThanOrEqual(0.9);
  }, 120_000);

  it("reruns only: the document-level interval alone, recommended; the fit adds the trial noise", () => {
    const design = { documents: 30, queries: 4, trials: 3, judges: 1, variants: 1 };
    const model: LogitNormalFacetModel = {
      kind: "logit-normal",
      intercept: 0,
      sds: { document: 0.5, query: 0.5 },
    };
    const study = facetCoverageStudy(model, design, { reps: 60, seed: 12, level: 0.95 });
    expect(study.recommended).toBe("fixed");
    expect(study.intervals.population).toBeNull();
    expect(study.intervals.reml).toBeNull();
    expect(study.intervals.spread).toBeNull();
    expect(study.intervals.fixed?.coverage).toBeGreaterThanOrEqual(0.88);
    expect(Object.keys(study.meanComponents).sort()).toEqual(["document", "query", "residual"]);
    // The residual is the Bernoulli noise of a trial: about E[p(1 − p)].
    const implied = facetModelComponents(model).residual as number;
    expect(study.meanComponents.residual).toBeGreaterThan(0.9 * implied);
    expect(study.meanComponents.residual).toBeLessThan(1.1 * implied);
    // Nothing but the decomposition: the interval is the one of each query's mean over trials,
    // whatever the facets (facetInterval's fixed interval on the per-query means).
    const one = facetRepetition(model, design, { seed: 12, repetition: 0, level: 0.95 });
    const cells = facetEvaluation(model, design, uniformSource(12, [0, 2]));
    const again = facetInterval(cells, { level: 0.95 });
    expect(one.intervals.fixed?.lower).toBe(again.fixed.interval.lower);
    expect(one.intervals.fixed?.upper).toBe(again.fixed.interval.upper);
  }, 120_000);

  it("a seed fixes the study; another seed changes it", () => {
    const options = { reps: 6, seed: 3, level: 0.95 };
    const small = { ...DESIGN, documents: 8, queries: 2 };
    const a = facetCoverageStudy(judgesModel(0.5), small, options);
    const b = facetCoverageStudy(judgesModel(0.5), small, options);
    expect(b).toEqual(a);
    const c = facetCoverageStudy(judgesModel(0.5), small, { ...options, seed: 4 });
    expect(c.intervals.population?.meanWidth).not.toBe(a.intervals.population?.meanWidth);
  }, 60_000);
});

describe("a faceted pilot's study", () => {
  const pilot = facetEvaluation(
    judgesModel(0.5),
    { documents: 12, queries: 3, trials: 1, judges: 3, variants: 1 },
    uniformSource(99, [0, 2]),
  );

  it("takes the pilot's design, a 0/1 pilot's logit-normal model, and one study per documents count", () => {
    const study = facetPilotStudy(pilot, { documents: [6, 10], reps: 3, seed: 1, level: 0.95 });
    expect(study.model.kind).toBe("logit-normal");
    expect(study.designs).toEqual([
      { documents: 6, queries: 3, trials: 1, judges: 3, variants: 1 },
      { documents: 10, queries: 3, trials: 1, judges: 3, variants: 1 },
    ]);
    expect(study.studies.map((s) => s.reps)).toEqual([3, 3]);
    expect(study.estimand).toContain("judges drawn afresh");
    // The model's components equal the pilot's REML ones (the calibration's target).
    for (const k of ["document", "query", "judge"] as const)
      expect(study.modelComponents[k]).toBeCloseTo(study.pilot.components[k] as number, 4);
    expect(study.truth).toBeCloseTo(study.pilot.mean, 6);
    const gaussian = facetPilotSetup(pilot, { model: "gaussian" });
    expect(gaussian.model).toEqual({
      kind: "gaussian",
      mean: study.pilot.mean,
      variances: study.pilot.components,
    });
  }, 60_000);

  it("refuses a pilot with one judge, and one without any facet", () => {
    const oneJudge = { ...pilot, judge: new Int32Array(pilot.n.length) };
    expect(() => facetPilotSetup(oneJudge, {})).toThrow(/one judge .*at least two/);
    const none = { ...pilot, judge: null, labels: { ...pilot.labels, judges: null } };
    expect(() => facetPilotSetup(none, {})).toThrow(/no facet beyond documents and queries/);
  });
});
