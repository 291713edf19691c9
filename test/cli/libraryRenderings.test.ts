import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withFlags } from "../../src/cli/flagHints.js";
import {
  analyzeSource,
  compareSource,
  markdownReport,
  planSample,
  RagciError,
  type RagciReport,
  readSource,
  reportJson,
  simulateSource,
  sizeStrataDesign,
  terminalReport,
} from "../../src/index.js";
import { jsonText } from "../../src/report/jsonText.js";
import { EXAMPLE, ROOT, ragciOk } from "./runCli.js";
import { ajv } from "./schemaValidator.js";

const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
const settings = { level: 0.95, replicates: 0, seed: 1 };
const NOT_A_REPORT =
  "not a report ragci renders: give analyzeSource's, compareSource's or simulateSource's report, { version, plan, stratified } or { version, file, system, design, sample }";

/**
 * The command's three outputs (--json, --markdown, the terminal's text without colour) against
 * the library's renderings of the report the library built: the same text, and the JSON valid
 * against the command's shipped schema. The library names an option as core does (`census`);
 * the command line shows it as its flag (--census), which withFlags does here as it does there.
 */
function expectSameOutputs(report: RagciReport, args: readonly string[], schema: string): void {
  const json = reportJson(report);
  expect(ajv.validate(schema, json), JSON.stringify(ajv.errors)).toBe(true);
  expect(JSON.parse(withFlags(jsonText(json)))).toEqual(JSON.parse(ragciOk([...args, "--json"])));
  expect(withFlags(markdownReport(report))).toBe(ragciOk([...args, "--markdown"]));
  expect(withFlags(terminalReport(report, { color: false }))).toBe(ragciOk(args));
}

describe("the library renders every command's report as the command does", () => {
  const source = { files: [EXAMPLE], doc: "doc_id" };
  const common = ["--doc", "doc_id", "--replicates", "0"];

  it("analyze: analyzeSource's report", async () => {
    const selection = { systemColumn: "system", systems: ["bm25", "tfidf"], metrics: ["hit5"] };
    const { report } = await analyzeSource(source, selection, settings, { version: VERSION });
    const args = ["analyze", EXAMPLE, ...common, "--system", "system=bm25,tfidf", "--metric"];
    expectSameOutputs(report, [...args, "hit5"], "ragci/schemas/analyze.v2.json");
  });

  it("compare: compareSource's report, with the gate field the command adds", async () => {
    const selection = { systemColumn: "system", systems: ["bm25", "tfidf"], metrics: ["hit5"] };
    const { report } = await compareSource(source, selection, settings, { version: VERSION });
    const args = ["compare", EXAMPLE, ...common, "--query", "query_id", "--system", "system"];
    expectSameOutputs(
      { ...report, gate: null },
      [...args, "--metric", "hit5"],
      "ragci/schemas/compare.v2.json",
    );
  });

  it("plan: planSample's plan for a given S", () => {
    const plan = planSample({
      sd: { macro: 0.4, micro: 0.4 },
      halfWidth: 0.05,
      population: null,
      level: 0.95,
      source: { kind: "given" },
    });
    const args = ["plan", "--sd", "0.4", "--half-width", "0.05"];
    expectSameOutputs(
      { version: VERSION, plan, stratified: null },
      args,
      "ragci/schemas/plan.v2.json",
    );
  });

  it("strata: sizeStrataDesign on a census read with readSource", async () => {
    const census = await readSource(
      source,
      { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] },
      { read: "one", usedBy: "the strata design" },
    );
    const design = sizeStrataDesign(census.stats, 20, 25);
    expect(design).not.toBeNull();
    const args = ["strata", EXAMPLE, "--doc", "doc_id", "--system", "system=bm25"];
    expectSameOutputs(
      {
        version: VERSION,
        file: EXAMPLE,
        system: "system bm25",
        design: design as NonNullable<typeof design>,
        sample: null,
      },
      [...args, "--metric", "hit5", "--documents", "20", "--cutoff", "25"],
      "ragci/schemas/strata.v2.json",
    );
  });

  it("simulate: simulateSource's report", async () => {
    const selection = { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] };
    const study = { k: [5, 10], reps: [150], replicates: 39, seed: 2, level: 0.9 };
    const { report } = await simulateSource(source, selection, study, {
      version: VERSION,
      threads: 1,
    });
    const args = ["simulate", EXAMPLE, "--doc", "doc_id", "--system", "system=bm25"];
    expectSameOutputs(
      report,
      [...args, "--metric", "hit5", "--k", "5,10", "--reps", "150", "--replicates", "39"].concat([
        "--seed",
        "2",
        "--level",
        "0.9",
        "--workers",
        "1",
      ]),
      "ragci/schemas/simulate.v2.json",
    );
  });

  it("simulate: simulateSource's report of a faceted pilot (a judge column)", async () => {
    const judges = join(ROOT, "examples/covidqa-judges.csv");
    const pilot = { files: [judges], doc: "doc_id", query: "query_id", judge: "judge" };
    const selection = { systemColumn: "system", systems: ["bm25"], metrics: ["found"] };
    const study = { k: [6], reps: [4], replicates: 0, seed: 7, level: 0.95 };
    const { report } = await simulateSource(pilot, selection, study, {
      version: VERSION,
      threads: 1,
    });
    expect("study" in report).toBe(true);
    const args = [
      "simulate",
      judges,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--metric",
      "found",
    ];
    expectSameOutputs(
      report,
      [
        ...args,
        "--system",
        "system=bm25",
        "--judge",
        "judge",
        "--k",
        "6",
        "--reps",
        "4",
        "--seed",
        "7",
      ],
      "ragci/schemas/simulate.v2.json",
    );
    // A census study's option is refused for a faceted pilot, in core's words.
    await expect(
      simulateSource(pilot, selection, { ...study, cutoff: 20 }, { version: VERSION, threads: 1 }),
    ).rejects.toThrow(
      "`cutoff` is for a census study; with `trial`, `judge` or `variant` simulate studies a faceted pilot without it",
    );
  });

  it("anything else is refused in words, not with a TypeError", () => {
    const other = { version: VERSION, census: {}, level: 0.95, notes: [] };
    for (const render of [
      () => reportJson(other as unknown as RagciReport),
      () => markdownReport(other as unknown as RagciReport),
      () => terminalReport(other as unknown as RagciReport, { color: false }),
    ])
      expect(render).toThrow(new RagciError("invalid-option", NOT_A_REPORT));
  });
});
