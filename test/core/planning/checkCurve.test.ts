import { describe, expect, it } from "vitest";
import { optionRef } from "../../../src/core/errors.js";
import { planSample } from "../../../src/core/planning/samplePlan.js";

const input = {
  sd: { macro: 0.2 },
  halfWidth: 0.05,
  level: 0.95,
  source: { kind: "given" as const },
};

describe("planSample's curve", () => {
  it("shows the half-width at each K given", () => {
    const plan = planSample({ ...input, population: 1300, curve: [10, 20] });
    expect(plan.curve).toEqual([10, 20]);
  });

  it("refuses a K below 2, not whole, or above M, naming the option", () => {
    const curve = optionRef("curve");
    expect(() => planSample({ ...input, population: null, curve: [1] })).toThrow(
      `${curve} 1: each K must be a whole number of documents ≥ 2`,
    );
    expect(() => planSample({ ...input, population: null, curve: [2.5] })).toThrow(
      `${curve} 2.5: each K`,
    );
    expect(() => planSample({ ...input, population: 40, curve: [50] })).toThrow(
      `${curve} 50: more than the population's 40 documents`,
    );
  });
});
