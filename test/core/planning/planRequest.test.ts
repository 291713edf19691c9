import { describe, expect, it } from "vitest";
import { parseFacetCosts } from "../../../src/cli/planOptions.js";
import { isRagciError } from "../../../src/core/errors.js";
import { checkPlanRequest, facetCosts } from "../../../src/core/planning/planRequest.js";

/** The refusal's message and the option it names, or null when nothing is refused. */
function refusal(run: () => unknown) {
  try {
    run();
    return null;
  } catch (error) {
    if (!isRagciError(error)) throw error;
    return { message: error.message, option: error.context.option };
  }
}

describe("checkPlanRequest: a plan's cross-checks name library options, never flags", () => {
  it.each([
    [
      { level: 0.95 },
      false,
      "halfWidth",
      "give `halfWidth` w (or `difference` d for a paired plan)",
    ],
    [{ level: 0.95, halfWidth: 0.05, cutoff: 3 }, false, "census", /^`cutoff` plans a stratified/],
    [
      { level: 0.95, difference: 0.1, cutoff: 3, census: true },
      true,
      "halfWidth",
      /^`cutoff` needs/,
    ],
    [{ level: 0.95, halfWidth: 0.05, budget: 5 }, true, "cost", /^`budget` is spent at `cost`/],
    [
      { level: 0.95, difference: 0 },
      false,
      "difference",
      "`difference` 0: give a non-zero number, e.g. 0.03",
    ],
    [
      { level: 0.95, difference: 0.1, power: 0.3 },
      true,
      "power",
      "`power` 0.3: give a power between 0.5 and 1, e.g. 0.8 or 80%",
    ],
    [
      { level: 0.95, halfWidth: 0.05, cost: { document: 1, query: 1, trial: 0, judge: 1 } },
      true,
      "judge",
      "`cost` plans across reruns and judges: name them with `trial` and/or `judge`",
    ],
  ] as const)("%j (read %s) is refused for %s", (request, read, option, message) => {
    const refused = refusal(() => checkPlanRequest(request, read));
    expect(refused?.option).toBe(option);
    expect(refused?.message).toMatch(message);
  });

  it("passes a target with a faceted pilot's costs", () => {
    const cost = { document: 1, query: 1, trial: 0, judge: 1 };
    expect(
      refusal(() => checkPlanRequest({ level: 0.95, halfWidth: 0.05, cost, judge: "j" }, true)),
    ).toBeNull();
  });
});

describe("--cost's prices", () => {
  it("are read with the flags' number grammar (.5, 1e1, 1_000), all four units", () => {
    expect(parseFacetCosts("document=1e1,query=.5,trial=0,judge=1_000")).toEqual({
      document: 10,
      query: 0.5,
      trial: 0,
      judge: 1000,
    });
  });

  it.each([
    "document=1,query=x,trial=0,judge=1",
    "document=-1,query=1,trial=0,judge=1",
    "document=1e999,query=1,trial=0,judge=1",
    "page=1",
  ])("%s is refused naming cost", (text) => {
    const refused = refusal(() => parseFacetCosts(text));
    expect(refused?.option).toBe("cost");
    expect(refused?.message).toBe(
      `\`cost\` ${text}: give each unit's price as document=…,query=…,trial=…,judge=… (numbers ≥ 0)`,
    );
  });

  it("names the units left out", () => {
    expect(
      refusal(() =>
        facetCosts(
          [
            ["document", 1],
            ["query", 2],
          ],
          "document=1,query=2",
        ),
      )?.message,
    ).toBe("`cost` document=1,query=2: give trial, judge too (0 if free)");
  });
});
