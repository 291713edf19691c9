import { describe, expect, it } from "vitest";
import { optionRef } from "../../../src/core/errors.js";
import {
  checkColumnsFit,
  type StudyPlanOptions,
  studyPlan,
  studySampling,
} from "../../../src/core/simulation/studyPlan.js";

describe("studyPlan", () => {
  it("SRS at K = 5, 10, 20 with 2000 repetitions each when nothing is given", () => {
    expect(studyPlan({})).toEqual({
      design: { kind: "srs" },
      sizes: { columns: [5, 10, 20], repetitions: [2000, 2000, 2000], perColumn: "K" },
    });
  });

  it("one repetition count per column, or one for all", () => {
    expect(studyPlan({ k: [5, 10], reps: [40, 30] }).sizes.repetitions).toEqual([40, 30]);
    expect(studyPlan({ k: [5, 10], reps: [7] }).sizes.repetitions).toEqual([7, 7]);
    expect(() => studyPlan({ k: [5, 10], reps: [1, 2, 3] })).toThrow(
      `${optionRef("reps")} 1,2,3: give one number, or one per K (2 of them)`,
    );
  });

  it("size strata need the cutoff; the allocation defaults to neyman", () => {
    expect(studyPlan({ sampling: "stratified", cutoff: 76 }).design).toEqual({
      kind: "stratified",
      cutoff: 76,
      allocation: "neyman",
    });
    expect(() => studyPlan({ sampling: "stratified" })).toThrow(
      `${optionRef("sampling")} stratified needs the size cutoff: ${optionRef("cutoff")} C`,
    );
    expect(() => studyPlan({ cutoff: 4 })).toThrow(
      `${optionRef("cutoff")} belongs to ${optionRef("sampling")} stratified`,
    );
  });

  it("two-stage: m units per column, k documents in each, a design file kept for its T and M_i", () => {
    const plan = studyPlan({ design: "topics.json", units: [4, 8], perUnit: 5, reps: [30] });
    expect(plan).toEqual({
      design: { kind: "two-stage", unitColumn: "psu", perUnit: 5, file: "topics.json" },
      sizes: { columns: [4, 8], repetitions: [30, 30], perColumn: "m" },
    });
    expect(() => studyPlan({ sampling: "two-stage", units: [4], perUnit: 5, k: [4] })).toThrow(
      `${optionRef("k")} does not apply`,
    );
    expect(() => studyPlan({ sampling: "two-stage", units: [4] })).toThrow(
      `a two-stage study needs ${optionRef("units")} m`,
    );
    expect(() => studyPlan({ units: [4] })).toThrow(/belong to a two-stage study/);
    expect(() => studyPlan({ sampling: "two-stage", units: [4], perUnit: 1 })).toThrow(
      `${optionRef("perUnit")} 1: give whole numbers ≥ 2`,
    );
  });

  it("a design file is a two-stage study, refused with another sampling", () => {
    const file = studyPlan({ design: "topics.json", units: [4], perUnit: 5 });
    expect(
      studyPlan({ sampling: "two-stage", design: "topics.json", units: [4], perUnit: 5 }),
    ).toEqual(file);
    expect(() => studyPlan({ sampling: "stratified", cutoff: 4, design: "topics.json" })).toThrow(
      `${optionRef("design")} topics.json: simulate reads a two-stage design file, and ${optionRef("sampling")} stratified takes none`,
    );
  });

  it("refuses an unknown sampling and sizes that are not whole numbers ≥ 2", () => {
    // a library caller's string: the CLI's parser refuses it first, with the same message
    const cluster = { sampling: "cluster" } as unknown as StudyPlanOptions;
    expect(() => studyPlan(cluster)).toThrow(`${optionRef("sampling")} cluster: use srs`);
    expect(() => studySampling("cluster")).toThrow(`${optionRef("sampling")} cluster: use srs`);
    expect(() => studyPlan({ k: [1] })).toThrow(`${optionRef("k")} 1: give whole numbers ≥ 2`);
    expect(() => studyPlan({ k: [2.5] })).toThrow(`${optionRef("k")} 2.5`);
    expect(() => studyPlan({ reps: [0] })).toThrow(`${optionRef("reps")} 0`);
  });
});

describe("checkColumnsFit", () => {
  it("refuses a K at or above the census's documents, except for two-stage columns (m units)", () => {
    expect(() => checkColumnsFit(studyPlan({ k: [5, 20] }), 20)).toThrow(
      `${optionRef("k")} 20: a study at K = M = 20 cannot miss`,
    );
    expect(() => checkColumnsFit(studyPlan({ k: [5, 19] }), 20)).not.toThrow();
    const twoStage = studyPlan({ sampling: "two-stage", units: [30], perUnit: 2 });
    expect(() => checkColumnsFit(twoStage, 20)).not.toThrow();
  });
});
