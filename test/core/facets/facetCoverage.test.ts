/**
 * A small seeded coverage study (bench/facets-coverage.mjs runs the full one): binary outcomes,
 * logit p = a_d + b_dq + c_j with three judges drawn afresh each repetition. The document-only
 * interval misses the judge-population mean far more often than 5%; the interval that counts
 * judges covers it. Thresholds sit well away from the seeded results (Monte Carlo se ≈ 2
 * points at 200 repetitions), so the test checks the ordering, not a lucky draw.
 */
import { describe, expect, it } from "vitest";
import { expit, type FacetCells, facetInterval } from "../../../src/core/index.js";
import { mulberry32 } from "../../support/mulberry32.js";
import { normalSource } from "./facetData.js";

const REPS = 200;
const D = 20;
const Q = 2;
const J = 3;
const SD = { document: 0.5, query: 0.5, judge: 0.5 };

/** E[expit(s Z)], Z ~ N(0, 1), on a fine grid. */
function meanExpit(s: number): number {
  let total = 0;
  let weight = 0;
  for (let i = -4000; i <= 4000; i++) {
    const z = i / 500;
    const w = Math.exp((-z * z) / 2);
    total += w * expit(s * z);
    weight += w;
  }
  return total / weight;
}

function evaluation(rand: () => number, normal: () => number): FacetCells {
  const c = Array.from({ length: J }, () => SD.judge * normal());
  const document: number[] = [];
  const query: number[] = [];
  const judge: number[] = [];
  const sum: number[] = [];
  for (let d = 0; d < D; d++) {
    const a = SD.document * normal();
    for (let q = 0; q < Q; q++) {
      const b = SD.query * normal();
      for (let j = 0; j < J; j++) {
        document.push(d);
        query.push(d * Q + q);
        judge.push(j);
        sum.push(rand() < expit(a + b + (c[j] as number)) ? 1 : 0);
      }
    }
  }
  return {
    document: Int32Array.from(document),
    query: Int32Array.from(query),
    judge: Int32Array.from(judge),
    variant: null,
    n: new Float64Array(sum.length).fill(1),
    sum: Float64Array.from(sum),
    withinSumOfSquares: new Float64Array(sum.length),
    labels: {
      documents: Array.from({ length: D }, (_, d) => `doc${d}`),
      judges: ["a", "b", "c"],
      variants: null,
    },
  };
}

describe("coverage of the judge-population mean (judges drawn from a population)", () => {
  it("the interval that counts judges covers; the document-only one does not", () => {
    const truth = meanExpit(Math.sqrt(SD.document ** 2 + SD.query ** 2 + SD.judge ** 2));
    const rand = mulberry32(20261206);
    const normal = normalSource(rand);
    let population = 0;
    let documentsOnly = 0;
    for (let r = 0; r < REPS; r++) {
      const result = facetInterval(evaluation(rand, normal), { level: 0.95 });
      const p = result.population?.interval;
      if (p && p.lower <= truth && truth <= p.upper) population++;
      const f = result.fixed.interval;
      if (f.lower <= truth && truth <= f.upper) documentsOnly++;
    }
    console.log(
      `coverage at ${REPS} repetitions: judge population ${population / REPS}, documents only ${documentsOnly / REPS}`,
    );
    expect(population / REPS).toBeGreaterThanOrEqual(0.9);
    expect(documentsOnly / REPS).toBeLessThanOrEqual(0.85);
  }, 300_000);
});
