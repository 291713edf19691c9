import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, ragci } from "./runCli.js";
import { ajv } from "./schemaValidator.js";

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
const PLAN = [
  "plan",
  JUDGES,
  "--system",
  "system=bm25",
  "--metric",
  "found",
  "--judge",
  "judge",
  "--half-width",
  "0.05",
  "--cost",
  "document=20,query=1,trial=0,judge=0.1",
];

describe("plan --cost: where the next dollar goes, from a faceted pilot", () => {
  it("gives the pilot's components, its own design's half-width and the cheapest design, as the library does", async () => {
    const run = ragci([...PLAN, "--budget", "2000", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const validate = ajv.getSchema("ragci/schemas/plan.v2.json");
    expect(validate?.(report), JSON.stringify(validate?.errors)).toBe(true);
    // The same plan from the library, on the cells read from the same file.
    const { readSource, facetPilotPlan } = await import("../../src/index.js");
    const [read] = await readSource(
      { files: [JUDGES], judge: "judge" },
      { systemColumn: "system", systems: ["bm25"], metrics: ["found"] },
      { read: "tables" },
    );
    const expected = facetPilotPlan(read?.cells?.[0]?.cells as never, {
      costs: { document: 20, query: 1, trial: 0, judge: 0.1 },
      level: 0.95,
      halfWidth: 0.05,
      budget: 2000,
    });
    expect(report.facets).toEqual(JSON.parse(JSON.stringify(expected)));
    const { current, cheapest, narrowest } = report.facets;
    // The pilot: 98 documents, 3 judges, one grade per (question, judge).
    expect([current.documents, current.judges, current.trials]).toEqual([98, 3, 1]);
    // The cheapest design reaches the target, the budget's narrowest stays within it.
    expect(cheapest.plan.halfWidth).toBeLessThanOrEqual(0.05);
    expect(narrowest.plan.cost).toBeLessThanOrEqual(2000);
    // With three judges the pilot's own design is far from ±0.05: the judges dominate.
    expect(current.halfWidth).toBeGreaterThan(0.1);
  });

  it("says that cheapest and narrowest are within the search's bounds, and which plan sits on one", async () => {
    const json = JSON.parse(ragci([...PLAN, "--budget", "2000", "--json"]).stdout);
    const { limits, cheapest, components } = json.facets;
    expect(limits).toEqual({ documents: 1_000_000, queries: 50, trials: 20, judges: 20 });
    // The cheapest for ±0.05 takes all 20 judges the search allows; past the bound a design
    // costs less (the library's search with 40 judges allowed, recomputed here).
    expect(cheapest.plan.judges).toBe(20);
    const { cheapestFacetPlan } = await import("../../src/index.js");
    const wider = cheapestFacetPlan(
      { components, costs: json.facets.costs, level: 0.95, limits: { judges: 40 } },
      0.05,
    );
    expect(wider?.halfWidth).toBeLessThanOrEqual(0.05);
    expect(wider?.cost).toBeLessThan(cheapest.plan.cost);
    const run = ragci([...PLAN, "--budget", "2000"]);
    expect(run.code).toBe(0);
    const text = run.stdout.replace(/\s+/g, " ");
    expect(text).toContain(
      'The search covers balanced designs of up to 20 judges, 50 queries per document, 20 reruns and 1,000,000 documents: "cheapest" and "narrowest" are within these bounds.',
    );
    expect(text).toContain(
      '"cheapest for ±0.05" has 20 judges, the search\'s limit: it is the best within it, and a design with more judges may cost less.',
    );
    // The budget's narrowest (19 judges) is not on a bound: no such line for it.
    expect(json.facets.narrowest.plan.judges).toBe(19);
    expect(text).not.toContain('"narrowest for 2000" has');
  });

  it("says it in the terminal report, and refuses what it cannot plan in one line", () => {
    const run = ragci(PLAN);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("across reruns and judges (variance components of the pilot)");
    expect(run.stdout).toMatch(/cheapest for ±0\.05 +\d+/);
    for (const [args, message] of [
      [
        [...PLAN.filter((a) => a !== "--judge" && a !== "judge")],
        "name them with --trial and/or --judge",
      ],
      [[...PLAN, "--cost", "document=1,query=1"], "give trial, judge too"],
      [[...PLAN.slice(0, -1), "document=1,query=x,trial=0,judge=0"], "numbers ≥ 0"],
      [
        [...PLAN.filter((a) => a !== "--half-width" && a !== "0.05"), "--difference", "0.03"],
        "--cost on one system plans for a half-width",
      ],
    ] as const) {
      const bad = ragci([...args]);
      expect(bad.code, args.join(" ")).toBe(2);
      expect(bad.stderr).toContain(message);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
