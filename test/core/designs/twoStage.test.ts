import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  documentStats,
  documentStatsFromRows,
  RagciError,
  stratifiedEstimates,
  twoStageEstimates,
} from "../../../src/core/index.js";

const dir = new URL("../../fixtures/reference/", import.meta.url);

describe("twoStageEstimates", () => {
  // two_stage_types.expected.json `two_stage`: R survey 4.1 svyratio / svymean on
  // svydesign(ids = ~psu + doc, fpc = ~T + Mi), confint with df = degf = m − 1 = 3.
  const expected = JSON.parse(
    readFileSync(new URL("two_stage_types.expected.json", dir), "utf8"),
  ).two_stage;
  const design = JSON.parse(readFileSync(new URL("two_stage_types.design.json", dir), "utf8"));
  const [header, ...lines] = readFileSync(new URL("two_stage_types.csv", dir), "utf8")
    .trim()
    .split(/\r?\n/);
  const cols = (header as string).split(",");
  const rows = lines.map((l) =>
    Object.fromEntries(l.split(",").map((v, i) => [cols[i], cols[i] === "score" ? Number(v) : v])),
  );
  const stats = documentStatsFromRows(rows, { doc: "doc_id", metric: "score" });
  const unitOf = new Map(rows.map((r) => [r.doc_id, String(r.psu)]));
  const result = twoStageEstimates(stats, {
    units: stats.ids.map((id) => unitOf.get(id) as string),
    firstStagePopulation: design.first_stage_population,
    secondStagePopulation: design.second_stage_population,
  });

  it.each([
    ["micro", "micro"],
    ["macro", "macro_hajek"],
  ] as const)(
    "reproduces the reference %s interval (se, ν = 3, bounds) to 1e-12",
    (estimand, key) => {
      const ref = expected[key];
      const mine = result[estimand];
      for (const field of ["se", "lower", "upper"] as const) {
        expect(Math.abs(mine[field] - ref[field]), field).toBeLessThanOrEqual(
          1e-12 * Math.abs(ref[field]),
        );
      }
      expect(mine.df).toBe(3);
    },
  );

  it("rejects a unit missing from the design and a unit with one sampled document", () => {
    expect(() =>
      twoStageEstimates(stats, {
        units: stats.ids.map(() => "t02"),
        firstStagePopulation: 10,
        secondStagePopulation: { t02: 40 },
      }),
    ).toThrow(/at least two/);
    expect(() =>
      twoStageEstimates(stats, {
        units: stats.ids.map((id) => unitOf.get(id) as string),
        firstStagePopulation: 10,
        secondStagePopulation: {},
      }),
    ).toThrow(RagciError);
  });
});

describe("stratifiedEstimates", () => {
  const stats = documentStats({
    ids: ["a", "b", "c", "d", "e"],
    n: [4, 10, 3, 8, 6],
    s: [1, 7, 3, 2, 3],
  });
  it("with one stratum and no fpc in effect equals the SRS estimates (cr1 and t with M → ∞)", () => {
    const big = stratifiedEstimates(stats, {
      strata: ["h", "h", "h", "h", "h"],
      populationSizes: { h: 1e12 },
    });
    // SRS: micro = 16/31, cr1 se; macro = mean rate, sd/√K (computed independently below)
    expect(big.micro.estimate).toBeCloseTo(16 / 31, 14);
    const rates = [1 / 4, 7 / 10, 1, 2 / 8, 3 / 6];
    const mean = rates.reduce((a, b) => a + b) / 5;
    const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / 4);
    expect(big.macro.se).toBeCloseTo(sd / Math.sqrt(5), 9);
    expect(big.macro.df).toBe(4);
  });
  it("names a stratum with one sampled document", () => {
    expect(() =>
      stratifiedEstimates(stats, {
        strata: ["h", "h", "h", "h", "g"],
        populationSizes: { h: 10, g: 5 },
      }),
    ).toThrow(/stratum "g" has one sampled document/);
  });
  it("gives ν = K − H and zero variance for a census stratum", () => {
    const census = stratifiedEstimates(stats, {
      strata: ["h", "h", "g", "g", "g"],
      populationSizes: { h: 2, g: 3 },
    });
    expect(census.micro.df).toBe(3);
    expect(census.micro.se).toBe(0);
  });
});
