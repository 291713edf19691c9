import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, ragci, scratchDir } from "./runCli.js";
import { ajv } from "./schemaValidator.js";

/** The report is valid under the schema it names (schemas/). */
function expectValid(out: Record<string, unknown>, command: string): void {
  const validate = ajv.getSchema(`ragci/schemas/${command}.v2.json`);
  expect(validate?.(out)).toBe(true);
  expect(validate?.errors ?? []).toEqual([]);
}

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");

describe("--trial, --judge, --variant on the command line", () => {
  it("analyze --judge reads the COVID-QA judges example: 98 documents, 1,380 questions per system", () => {
    const run = ragci([
      "analyze",
      JUDGES,
      "--system",
      "system",
      "--metric",
      "found",
      "--judge",
      "judge",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.inputs[0]).toMatchObject({ format: "csv", rows: 8280, kind: "per-query" });
    expectValid(report, "analyze");
    expect(JSON.stringify(report.notes)).toContain(
      "each query's result is its mean over 3 judges (column judge: lenient, medium, strict)",
    );
  });

  it("compare --judge pairs the systems on the questions averaged over judges", () => {
    const run = ragci([
      "compare",
      JUDGES,
      "--system",
      "system",
      "--metric",
      "found",
      "--judge",
      "judge",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expectValid(report, "compare");
    expect(report.inputs[0].rows).toBe(8280);
    // Each compared system's components, by metric, then system.
    expect(Object.keys(report.varianceComponents.found)).toEqual(["bm25", "tfidf", "tfidf - bm25"]);
    // The difference's fit: the mean of the cell differences is the per-document micro difference.
    const difference = report.facets.found["tfidf - bm25"];
    expect(difference.fixed.estimate).toBeCloseTo(
      report.comparisons[0].difference.micro.estimate,
      12,
    );
    expect(difference.recommended).toBe("population");
    expect(Object.keys(report.varianceComponents.found.tfidf)).toEqual([
      "document",
      "query",
      "judge",
      "documentJudge",
      "residual",
    ]);
    expect(report.facets.found.bm25.levels).toMatchObject({
      documents: 98,
      queries: 1380,
      judges: 3,
    });
  }, 120_000);

  it("a query rerun without --trial is refused naming the flag", () => {
    const file = join(scratchDir(), "reruns.csv");
    writeFileSync(file, "doc_id,query_id,judge,score\nd1,q1,A,1\nd1,q1,A,0\nd2,q2,A,1\n");
    const run = ragci(["analyze", file, "--metric", "score", "--judge", "judge"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("name the reruns' column with --trial, or remove the repeats");
  });

  it("plan --trial reads a pilot's reruns", () => {
    const file = join(scratchDir(), "pilot.csv");
    const lines = ["doc_id,query_id,epoch,score"];
    for (let d = 0; d < 12; d++)
      for (let q = 0; q < 3; q++)
        for (let e = 1; e <= 2; e++)
          lines.push(`d${d},d${d}q${q},${e},${(d * 7 + q * 3 + e) % 5 === 0 ? 0 : 1}`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const run = ragci([
      "plan",
      file,
      "--metric",
      "score",
      "--trial",
      "epoch",
      "--half-width",
      "0.1",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });
});

describe("variance components and the judges' population interval in the analyze report", () => {
  it("--json carries varianceComponents and facets equal to the library's facetInterval of the cells", async () => {
    const { readSource } = await import("../../src/index.js");
    const { facetInterval } = await import("../../src/core/facets/facetInterval.js");
    const run = ragci([
      "analyze",
      JUDGES,
      "--system",
      "system=bm25",
      "--metric",
      "found",
      "--judge",
      "judge",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expectValid(report, "analyze");
    const [read] = await readSource(
      { files: [JUDGES], judge: "judge" },
      { systemColumn: "system", systems: ["bm25"], metrics: ["found"] },
      { read: "tables" },
    );
    const fit = facetInterval(read?.cells?.[0]?.cells as never, { level: 0.95 });
    const analysis = report.analyses[0];
    expect(Object.keys(analysis.varianceComponents)).toEqual([
      "document",
      "query",
      "judge",
      "documentJudge",
      "residual",
    ]);
    for (const [k, v] of Object.entries(analysis.varianceComponents))
      expect(v).toBeCloseTo(fit.components.components[k as "document"] as number, 12);
    expect(analysis.facets.recommended).toBe("population");
    expect(analysis.facets.population.df).toBeCloseTo(fit.population?.interval.df as number, 9);
    expect(analysis.facets.population.lower).toBeCloseTo(
      fit.population?.interval.available ? fit.population.interval.lower : Number.NaN,
      9,
    );
    // These judges only: the mean of the cell means, which is the per-document micro here.
    expect(analysis.facets.fixed.estimate).toBeCloseTo(analysis.micro.estimate, 12);
    const terminal = ragci([
      "analyze",
      JUDGES,
      "--system",
      "system=bm25",
      "--metric",
      "found",
      "--judge",
      "judge",
    ]);
    const df = Number(fit.population?.interval.df).toFixed(2);
    expect(terminal.stdout).toContain(
      `judges drawn from a population (recommended): ${fit.population?.estimate.toFixed(4)} [`,
    );
    expect(terminal.stdout).toContain(`ν = ${df}  REML mean, lmerTest's Satterthwaite ν`);
    expect(terminal.stdout).toContain("these judges only (fixed): ");
    expect(terminal.stdout).toContain(
      "variance components (REML, lme4's model; 98 documents, 1380 queries, 3 judges, 4140 results)",
    );
  }, 120_000);
});

describe("promptfoo's graders as judges on the command line", () => {
  it("analyze --judge grader on promptfoo's file equals the same grades read from a CSV", () => {
    // The fixture's three llm-rubric judges grade "gold chunk within the top 3, 5, 10": the
    // strict, medium and lenient judges of examples/covidqa-judges.csv, on 34 of its questions.
    const pf = join(ROOT, "test/fixtures/realTools/promptfoo");
    const questions = new Set(
      readFileSync(join(pf, "retrieval.csv"), "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(",")[1]),
    );
    const [header, ...lines] = readFileSync(JUDGES, "utf8").trim().split("\n");
    const csv = join(scratchDir(), "judges-34.csv");
    writeFileSync(
      csv,
      `${[header, ...lines.filter((l) => questions.has(l.split(",")[1]))].join("\n")}\n`,
    );
    const analyze = (args: string[]) => {
      const run = ragci(["analyze", ...args, "--system", "system=bm25", "--json"]);
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout).analyses[0];
    };
    const promptfoo = analyze([
      join(pf, "results-judges.json"),
      "--doc",
      "metadata.doc",
      "--metric",
      "relevant",
      "--judge",
      "grader",
    ]);
    const table = analyze([csv, "--metric", "found", "--judge", "judge"]);
    expect(promptfoo.facets.levels).toEqual({ ...table.facets.levels });
    expect(promptfoo.facets.levels.judges).toBe(3);
    for (const key of ["population", "fixed"] as const)
      for (const field of ["estimate", "lower", "upper", "se", "df"])
        expect(promptfoo.facets[key][field]).toBeCloseTo(table.facets[key][field], 10);
    for (const [name, value] of Object.entries(table.varianceComponents))
      expect(promptfoo.varianceComponents[name]).toBeCloseTo(value as number, 10);
  });
});
