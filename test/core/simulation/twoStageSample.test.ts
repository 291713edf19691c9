import { describe, expect, it } from "vitest";
import { analyze } from "../../../src/core/analyze.js";
import { RagciError } from "../../../src/core/errors.js";
import { runRepetitions, STUDY_METHODS } from "../../../src/core/simulation/coverageStudy.js";
import { sampleStats } from "../../../src/core/simulation/sampleDocuments.js";
import {
  checkTwoStagePopulation,
  expectedDocuments,
  studyUnits,
  twoStageIndices,
} from "../../../src/core/simulation/twoStageSample.js";
import type { DocumentStats } from "../../../src/core/types.js";
import { runNumpy } from "../numeric/numpyOracle.js";

// 60 documents in 7 units of sizes 1 … 17 (unit of document d: the first u with d < Σ_{≤u}),
// 0/1 results with sizes 1 … 9.
const sizes = [1, 2, 5, 8, 10, 17, 17];
const labels = sizes.flatMap((m, u) => Array.from({ length: m }, () => `u${u}`));
const census: DocumentStats = {
  ids: labels.map((_, d) => `d${String(d).padStart(2, "0")}`),
  n: Float64Array.from(labels, (_, d) => 1 + (d % 9)),
  s: Float64Array.from(labels, (_, d) => ((d * 7) % 11) % (2 + (d % 9))),
  ss: Float64Array.from(labels, (_, d) => ((d * 7) % 11) % (2 + (d % 9))),
  binary: true,
  min: 0,
  max: 1,
};

describe("two-stage study samples", () => {
  it("are numpy's: choice(T, m) of the units, then choice(M_i, min(k, M_i)) in each, in draw order", () => {
    const units = studyUnits(labels, 4, 3);
    const members = units.members.map((m) => [...m]);
    const cases = [
      [1, 0],
      [1, 7],
      [5, 123],
      [99, 4999],
    ] as const;
    const numpy = runNumpy<number[][]>(`
members = ${JSON.stringify(members)}
out = []
for seed, i in ${JSON.stringify(cases)}:
    g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i, 0))))
    picked = []
    for u in g.choice(len(members), 4, replace=False):
        k = min(3, len(members[u]))
        picked += [members[u][j] for j in g.choice(len(members[u]), k, replace=False)]
    out.append([int(x) for x in picked])
print(json.dumps(out))`);
    cases.forEach(([seed, i], c) => {
      const drawn = twoStageIndices(units, seed, i);
      expect(Array.from(drawn.indices)).toEqual(numpy[c]);
      expect(drawn.labels).toEqual(Array.from(drawn.indices, (d) => labels[d] as string));
    });
  });

  it("hold (m/T) Σ min(k, M_i) documents on average", () => {
    // k = 3: min(3, M_i) = 1, 2, 3, 3, 3, 3, 3 → 18; m/T = 4/7
    expect(expectedDocuments(studyUnits(labels, 4, 3))).toBeCloseTo((4 / 7) * 18, 12);
  });

  it("are scored with the two-stage design analyze uses (T, M_i and each document's unit)", () => {
    const units = studyUnits(labels, 3, 4);
    const options = {
      documents: 12,
      repetitions: 5,
      replicates: 0,
      seed: 2,
      level: 0.9,
      fpc: false,
      units,
    };
    const results = runRepetitions(census, options, 0, 5);
    for (let i = 0; i < 5; i++) {
      const drawn = twoStageIndices(units, 2, i);
      const direct = analyze(sampleStats(census, drawn.indices), {
        level: 0.9,
        replicates: 0,
        design: {
          kind: "two-stage",
          units: drawn.labels,
          firstStagePopulation: 7,
          secondStagePopulation: Object.fromEntries(sizes.map((m, u) => [`u${u}`, m])),
        },
      });
      for (const estimand of ["micro", "macro"] as const) {
        const m = STUDY_METHODS.indexOf(`${estimand}/two-stage`);
        const interval = direct[estimand]?.intervals["two-stage"];
        if (!interval?.available) throw new Error("two-stage interval unavailable");
        expect(results.lower[m * 5 + i]).toBe(interval.lower);
        expect(results.upper[m * 5 + i]).toBe(interval.upper);
        expect(results.df[m * 5 + i]).toBe(2); // ν = m − 1
      }
    }
  });

  it("refuse m outside 2 … T, k < 2, and a design file that does not describe the census", () => {
    expect(() => studyUnits(labels, 1, 3)).toThrow(/between 2 and the census's 7/);
    expect(() => studyUnits(labels, 8, 3)).toThrow(RagciError);
    expect(() => studyUnits(labels, 3, 1)).toThrow(/give a whole number ≥ 2/);
    const units = studyUnits(labels, 3, 3);
    const population = Object.fromEntries(sizes.map((m, u) => [`u${u}`, m]));
    expect(() => checkTwoStagePopulation(units, 7, population, "d.json")).not.toThrow();
    expect(() => checkTwoStagePopulation(units, 8, population, "d.json")).toThrow(
      /d.json: first_stage_population is 8 but the census has 7/,
    );
    expect(() => checkTwoStagePopulation(units, 7, { ...population, u3: 9 }, "d.json")).toThrow(
      /unit "u3" has M_i = 9 in second_stage_population but 8 documents/,
    );
    // m = T with k ≥ the largest unit (17): every sample is the census, which cannot miss.
    const whole = twoStageIndices(studyUnits(labels, 7, 16), 1, 0).indices;
    expect(whole.length).toBe(labels.length - 2); // one document short in each unit of 17
    expect(() => studyUnits(labels, 7, 17)).toThrow(
      /^`units` 7 with `perUnit` 17: every sample is the whole census \(all 7 units, and no unit has more than 17 documents\), so a study cannot miss; draw fewer units, or fewer documents per unit than the largest unit holds$/,
    );
    expect(() => studyUnits(labels, 6, 17)).not.toThrow();
    const { u0: _, ...withoutU0 } = population;
    expect(() => checkTwoStagePopulation(units, 7, withoutU0, "d.json")).toThrow(
      /unit "u0" has no M_i/,
    );
  });
});
