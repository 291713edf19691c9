import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, ragci } from "./runCli.js";
import { ajv } from "./schemaValidator.js";

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
const PAIR = [
  "plan",
  JUDGES,
  "--system",
  "system=bm25,tfidf",
  "--metric",
  "found",
  "--judge",
  "judge",
  "--difference",
  "0.03",
  "--cost",
  "document=10,query=1,trial=0.2,judge=0.5",
];

describe("plan --cost on a pair: how to detect a difference across reruns and judges", () => {
  it("plans on the paired difference's components, as the library's facetPairPlan of both systems' cells", async () => {
    const run = ragci([...PAIR, "--half-width", "0.02", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const validate = ajv.getSchema("ragci/schemas/plan.v2.json");
    expect(validate?.(report), JSON.stringify(validate?.errors)).toBe(true);
    const { readSource } = await import("../../src/index.js");
    const { facetPairPlan } = await import("../../src/core/facets/facetPairPlan.js");
    const cells = async (system: string) => {
      const [read] = await readSource(
        { files: [JUDGES], judge: "judge" },
        { systemColumn: "system", systems: [system], metrics: ["found"] },
        { read: "tables" },
      );
      return read?.cells?.[0]?.cells as never;
    };
    const expected = facetPairPlan(
      { system: "bm25", cells: await cells("bm25") },
      { system: "tfidf", cells: await cells("tfidf") },
      {
        costs: { document: 10, query: 1, trial: 0.2, judge: 0.5 },
        level: 0.95,
        halfWidth: 0.02,
        difference: 0.03,
        power: 0.8,
      },
    );
    expect(report.facets).toEqual(JSON.parse(JSON.stringify(expected)));
    const { detect, pair, cheapest } = report.facets;
    expect(pair).toMatchObject({ a: "bm25", b: "tfidf", unmatched: { a: 0, b: 0 } });
    expect(pair.pairCosts).toEqual({ document: 10, query: 1, trial: 0.4, judge: 1 });
    expect(detect.plan.detectable).toBeLessThanOrEqual(0.03);
    expect(cheapest.plan.halfWidth).toBeLessThanOrEqual(0.02);
    // The difference's components: the paired (bm25, tfidf) cells, not either system's.
    const compare = JSON.parse(
      ragci([
        "compare",
        JUDGES,
        "--system",
        "system",
        "--metric",
        "found",
        "--judge",
        "judge",
        "--json",
      ]).stdout,
    );
    const difference = compare.varianceComponents.found["tfidf - bm25"];
    for (const [k, v] of Object.entries(difference))
      expect(report.facets.components[k]).toBeCloseTo(v as number, 10);
  }, 120_000);

  it("says it in the terminal: the difference's components, what the pilot detects and the cheapest design that does", () => {
    const run = ragci(PAIR);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "across reruns and judges (variance components of the paired difference tfidf − bm25)",
    );
    expect(run.stdout).toMatch(/cheapest to detect 0\.03 +\d+/);
    expect(run.stdout).toContain("detects (power 0.8)");
    // This pilot has no reruns: the residual is not called rerun noise.
    expect(run.stdout).toContain("The pilot has one run per cell (no reruns)");
  }, 120_000);
});
