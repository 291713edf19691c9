import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, ragci, scratchDir } from "./runCli.js";

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
    expect(JSON.stringify(report.inputWarnings)).toContain(
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
    expect(report.inputs[0].rows).toBe(8280);
    // Each compared system's components, by system (one metric).
    expect(Object.keys(report.varianceComponents)).toEqual(["bm25", "tfidf"]);
    expect(Object.keys(report.varianceComponents.tfidf)).toEqual([
      "document",
      "query",
      "judge",
      "documentJudge",
      "residual",
    ]);
    expect(report.varianceFit.bm25.levels).toMatchObject({
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

describe("variance components in the analyze report", () => {
  it("--json carries varianceComponents (document, query, judge, documentJudge, residual) equal to the library's fit of the cells", async () => {
    const { readSource } = await import("../../src/index.js");
    const { varianceComponents } = await import("../../src/core/facets/varianceComponents.js");
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
    const [read] = await readSource(
      { files: [JUDGES], judge: "judge" },
      { systemColumn: "system", systems: ["bm25"], metrics: ["found"] },
      { read: "tables" },
    );
    const fit = varianceComponents(read?.cells?.[0]?.cells as never);
    const shown = report.systems?.bm25?.varianceComponents ?? report.varianceComponents;
    expect(Object.keys(shown)).toEqual(["document", "query", "judge", "documentJudge", "residual"]);
    for (const [k, v] of Object.entries(shown))
      expect(v).toBeCloseTo(fit.components[k as keyof typeof fit.components] as number, 12);
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
    expect(terminal.stdout).toContain(
      "variance components (REML, lme4's model; 98 documents, 1380 queries, 3 judges, 4140 results)",
    );
    expect(terminal.stdout).toContain("the intervals above are for these judges (fixed)");
  }, 120_000);
});
