import { describe, expect, it } from "vitest";
import type { MetricComparisons } from "../../src/core/compareMetric.js";
import { isRagciError } from "../../src/core/errors.js";
import { decideRequestedGate, gateOfRequest } from "../../src/core/gateRequest.js";

function refusedOption(run: () => unknown) {
  try {
    run();
    return null;
  } catch (error) {
    if (!isRagciError(error)) throw error;
    return [error.context.option, error.message];
  }
}

describe("gateOfRequest", () => {
  it("is null without a rule, and the request's options with one (micro by default)", () => {
    expect(gateOfRequest({})).toBeNull();
    expect(gateOfRequest({ failIfWorse: true, baseline: "bm25", metric: ["hit@5"] })).toEqual({
      rule: "fail-if-worse",
      margin: 0,
      estimand: "micro",
      baseline: "bm25",
      lowerIsBetter: [],
      requestedMetrics: ["hit@5"],
    });
  });

  it.each([
    [{ failIfWorse: true, requireNoninferior: true, baseline: "a" }, "requireNoninferior"],
    [{ margin: 0.1 }, "margin"],
    [{ lowerIsBetter: ["rr"] }, "lowerIsBetter"],
    [{ failIfWorse: true }, "baseline"],
    [{ requireNoninferior: true, baseline: "a" }, "margin"],
  ])("refuses %j naming %s, in the library's names", (request, option) => {
    const refused = refusedOption(() => gateOfRequest(request));
    expect(refused?.[0]).toBe(option);
    expect(refused?.[1]).not.toMatch(/--/);
  });
});

describe("decideRequestedGate", () => {
  it("reads lowerIsBetter in the metrics' requested names (hit@5 is reported as hit5)", () => {
    const results = [{ metric: "hit5", comparisons: [] }] as unknown as MetricComparisons[];
    const request = { failIfWorse: true, baseline: "a", lowerIsBetter: ["hit@5"] };
    const gate = gateOfRequest({ ...request, metric: ["hit@5"] });
    const decision = decideRequestedGate(results, 0.95, gate as NonNullable<typeof gate>);
    expect(decision.failed).toBe(false);
    // Without the requested names, hit@5 is no compared metric: core's gate refuses it.
    const unnamed = gateOfRequest(request);
    expect(() =>
      decideRequestedGate(results, 0.95, unnamed as NonNullable<typeof unnamed>),
    ).toThrow(/hit@5 is named as lower-is-better but is not compared/);
  });
});
