import { describe, expect, it } from "vitest";
import { levelPercent } from "../../src/core/intervals/levelPercent.js";
import { planSample } from "../../src/core/planning/samplePlan.js";

const pilotPlan = (level: number) =>
  planSample({
    sd: { macro: 0.2 },
    population: null,
    level,
    halfWidth: 0.05,
    source: { kind: "pilot", file: "pilot.csv", documents: 30, sha256: "" },
  });

describe("core's messages label a level as the reports do, never rounded to 100%", () => {
  it("the pilot's uncertainty warning at 99.9% says 99.9%, at 95% still 95%", () => {
    expect(pilotPlan(0.999).warnings[0]).toContain("its 99.9% interval would run from");
    expect(pilotPlan(0.95).warnings[0]).toContain("its 95% interval would run from");
  });

  it("levelPercent keeps at least the decimals asked for (the census study's 95.0%)", () => {
    expect(levelPercent(0.95, 1)).toBe("95.0%");
    expect(levelPercent(0.9999, 1)).toBe("99.99%");
  });
});
