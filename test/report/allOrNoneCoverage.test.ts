import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allOrNoneBound } from "../../src/core/simulation/allOrNoneBound.js";
import { coverageWithError } from "../../src/report/format.js";
import { studyPoints } from "../../src/report/html/coverageStudyPoints.js";
import type { SimulationReport } from "../../src/report/simulationReport.js";

describe("a coverage of all or none of the repetitions", () => {
  it("has the exact bound p with p^R = 0.05 (none: 1 − that), never a se of 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (reps) => {
        const all = allOrNoneBound(1, reps);
        const none = allOrNoneBound(0, reps);
        expect(all?.side).toBe("≥");
        expect(none?.side).toBe("≤");
        // P(all R cover | p = bound) = 0.05; (1 − bound)... for none by symmetry.
        expect((all?.bound as number) ** reps).toBeCloseTo(0.05, 12);
        expect((1 - (none?.bound as number)) ** reps).toBeCloseTo(0.05, 12);
      }),
    );
    expect(allOrNoneBound(0.995, 200)).toBeNull();
  });

  it("reads 100.0% (≥ 98.5) for 200 of 200, and coverage ± se otherwise", () => {
    expect(coverageWithError(1, 0, 200)).toBe("100.0% (≥ 98.5)");
    expect(coverageWithError(0, 0, 20)).toBe("0.0% (≤ 13.9)");
    expect(coverageWithError(0.95, Math.sqrt((0.95 * 0.05) / 200), 200)).toBe("95.0% ± 1.5");
  });

  it("draws the HTML figure's bar from the bound, not a bar of width 0", () => {
    const report = {
      studies: [
        {
          k: 90,
          reps: 200,
          design: { kind: "srs" },
          methods: {
            "micro/cr2": { coverage: 1, mcse: 0, meanWidth: 0.1 },
            "micro/logit": { coverage: 0.9, mcse: 0.02, meanWidth: 0.1 },
          },
        },
      ],
      recommended: [{ micro: null, macro: null }],
    } as unknown as SimulationReport;
    const [cr2, logit] = studyPoints(report, "micro");
    expect(cr2?.bar[0]).toBeCloseTo(0.05 ** (1 / 200), 15);
    expect(cr2?.bar[1]).toBe(1);
    expect(logit?.bar).toEqual([0.9 - 1.96 * 0.02, 0.9 + 1.96 * 0.02]);
  });
});
