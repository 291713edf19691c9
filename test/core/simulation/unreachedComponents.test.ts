/**
 * Which pilot components a calibrated logit-normal model does not reach, and the note that says
 * so (src/core/simulation/unreachedComponents.ts).
 */
import { describe, expect, it } from "vitest";
import {
  facetModelComponents,
  logitNormalFromComponents,
  MAX_LOGIT_SD,
} from "../../../src/core/simulation/facetModel.js";
import {
  UNREACHED_TOLERANCE,
  unreachedComponents,
  unreachedNote,
} from "../../../src/core/simulation/unreachedComponents.js";

const calibrated = (mean: number, pilot: Record<string, number>) => {
  const model = logitNormalFromComponents(mean, pilot);
  return { model, implied: facetModelComponents(model) };
};

describe("unreachedComponents", () => {
  it("a document × judge component below the floor the document and judge effects give", () => {
    // The floor: the document × judge component of the model with no such effect of its own.
    const floor = calibrated(0.7, { document: 0.02, judge: 0.005 }).implied.documentJudge as number;
    expect(floor).toBeGreaterThan(UNREACHED_TOLERANCE.absolute);
    const pilot = { document: 0.02, judge: 0.005, documentJudge: floor / 2 };
    const { model, implied } = calibrated(0.7, pilot);
    const missed = unreachedComponents(pilot, implied, model);
    expect(missed.map((u) => u.component)).toEqual(["documentJudge"]);
    expect(missed[0]?.model).toBeCloseTo(floor, 6);
    expect(unreachedNote(missed[0] as (typeof missed)[0])).toContain(
      "the logistic curve makes the effects interact",
    );
    // At twice the floor the calibration reaches it: no note.
    const reachable = { ...pilot, documentJudge: 2 * floor };
    const again = calibrated(0.7, reachable);
    expect(unreachedComponents(reachable, again.implied, again.model)).toEqual([]);
  });

  it("a query component the capped logit-scale sd cannot explain", () => {
    const pilot = { document: 0.002, query: 0.245 };
    const { model, implied } = calibrated(0.5, pilot);
    expect(model.sds.query).toBe(MAX_LOGIT_SD);
    const missed = unreachedComponents(pilot, implied, model);
    expect(missed.map((u) => u.component)).toContain("query");
    const query = missed.find((u) => u.component === "query");
    expect(query?.model).toBeLessThan(0.9 * 0.245);
    expect(unreachedNote(query as (typeof missed)[0])).toContain(
      `at the calibration's limit of ${MAX_LOGIT_SD}`,
    );
  });

  it("the tolerance: relative 10% and absolute 1e-6, both exceeded", () => {
    const model = { kind: "logit-normal" as const, intercept: 0, sds: { document: 1, judge: 1 } };
    const found = (pilot: number, have: number) =>
      unreachedComponents({ document: pilot }, { document: have }, model).length;
    expect(found(0.01, 0.0109)).toBe(0);
    expect(found(0.01, 0.0111)).toBe(1);
    expect(found(0.01, 0.0089)).toBe(1);
    expect(found(0, 9e-7)).toBe(0);
    expect(found(0, 2e-6)).toBe(1);
    // Components the pilot has no facet for are skipped.
    expect(unreachedComponents({}, { judge: 0.5 }, model)).toEqual([]);
  });
});
