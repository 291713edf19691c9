import { describe, expect, it } from "vitest";
import { FEWEST_DIFFERING_DOCUMENTS } from "../../../src/core/diagnostics/differingDocuments.js";
import { optionRef } from "../../../src/core/errors.js";
import { PAIRED_STUDY_COVERAGE } from "../../../src/core/pairedStudyCoverage.js";
import { planSample } from "../../../src/core/planning/samplePlan.js";
import { RAGCI_STUDY_COVERAGE } from "../../../src/core/recommendMethod.js";

const given = { kind: "given" } as const;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A one-system plan from a given S: documents for the half-width. */
const oneSystem = (sd: number, halfWidth: number) =>
  planSample({
    sd: { macro: sd, micro: sd },
    halfWidth,
    level: 0.95,
    population: null,
    source: given,
  });
/** A paired plan from a given S: documents to detect `difference` with power 0.8. */
const paired = (sd: number, difference: number) =>
  planSample({
    sd: { macro: sd, micro: sd },
    difference,
    power: 0.8,
    level: 0.95,
    population: null,
    source: given,
  });

// Issue 25: "a 4-document paired plan comes with no small-K warning". A plan below K = 20 now
// says what ragci's studies found at K = 5 or 10, from the same tables the analyze advice quotes.
describe("a plan below K = 20 says what the studies found there", () => {
  it("a paired plan of 5 documents quotes the paired studies at K = 5", () => {
    const plan = paired(0.3, 0.5);
    expect(plan.macro?.detect?.documents).toBe(5);
    const small = plan.warnings.filter((w) => w.startsWith("The plan's K = 5 is below 20"));
    expect(small).toHaveLength(1);
    expect(small[0]).toContain(
      `${pct(PAIRED_STUDY_COVERAGE["k5-lowest/macro/t-differing"])}–${pct(PAIRED_STUDY_COVERAGE["k5-highest/macro/t-differing"])} (macro t-differing`,
    );
  });

  it("a one-system plan of 12 documents quotes the single-system studies at K = 10", () => {
    const plan = oneSystem(0.2, 0.15);
    const k = Math.min(plan.macro?.documents as number, plan.micro?.documents as number);
    expect(k).toBeGreaterThan(5);
    expect(k).toBeLessThan(20);
    const small = plan.warnings.filter((w) => w.startsWith(`The plan's K = ${k} is below 20`));
    expect(small).toHaveLength(1);
    expect(small[0]).toContain(pct(RAGCI_STUDY_COVERAGE["k10-lowest/micro/logit-cv3"]));
    expect(small[0]).not.toContain("paired");
  });

  it("a plan of 20 documents or more has no such warning", () => {
    const plan = oneSystem(0.3, 0.05);
    expect(plan.macro?.documents).toBeGreaterThanOrEqual(20);
    expect(plan.warnings.some((w) => w.includes("is below 20"))).toBe(false);
  });
});

describe("a paired plan from a given S below the documents compare needs to differ", () => {
  const neverLine = (warnings: readonly string[]) =>
    warnings.filter((w) => w.includes("can never have one"));

  it("K below 8: says compare can never recommend an interval from such a sample", () => {
    const plan = paired(0.05, 0.2);
    const k = plan.macro?.detect?.documents as number;
    expect(k).toBeLessThan(FEWEST_DIFFERING_DOCUMENTS);
    expect(neverLine(plan.warnings)).toEqual([
      `compare recommends no interval of the difference (and a gate check is inconclusive) when fewer than ${FEWEST_DIFFERING_DOCUMENTS} documents of a sample differ between the two systems, so a sample of K = ${k} can never have one: label at least ${FEWEST_DIFFERING_DOCUMENTS} documents, and more where the systems tie on many (a pilot of the pair, ${optionRef("system")} COL=A,B, plans for its ties).`,
    ]);
  });

  it("K of 8 or more: no such line", () => {
    const plan = paired(0.3, 0.2);
    expect(plan.macro?.detect?.documents as number).toBeGreaterThanOrEqual(
      FEWEST_DIFFERING_DOCUMENTS,
    );
    expect(neverLine(plan.warnings)).toEqual([]);
  });

  it("a one-system plan of few documents: no such line", () => {
    const plan = oneSystem(0.05, 0.1);
    expect(plan.macro?.documents as number).toBeLessThan(FEWEST_DIFFERING_DOCUMENTS);
    expect(neverLine(plan.warnings)).toEqual([]);
  });
});
