import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deepevalFormat } from "../../../src/ingest/evalFormats/deepeval.js";
import { readEvalContent } from "../../../src/ingest/evalFormats/readEvalContent.js";

const dir = join(import.meta.dirname, "../../fixtures/evalFormats");
const load = (name: string) => readEvalContent(join(dir, name), name);

describe("deepeval reader", () => {
  it("detects a DeepEval test run and not the other tools' files", async () => {
    expect(deepevalFormat.detect(await load("deepeval-test-run.json"))).toBe(true);
    for (const other of ["braintrust-experiment.jsonl", "evalite-output.json"])
      expect(deepevalFormat.detect(await load(other))).toBe(false);
  });

  it("reads each test case with its document, the run's identifier and every score", async () => {
    const content = await load("deepeval-test-run.json");
    const read = deepevalFormat.toRows(content, {
      file: "run.json",
      docPath: ["metadata", "source_doc"],
    });
    expect(read.rows).toEqual([
      {
        query: "q1",
        doc: "tides.md",
        system: "rag-v2",
        metrics: {
          success: 1,
          Faithfulness: 0.9,
          "Faithfulness.success": 1,
          "Answer Relevancy": 1,
          "Answer Relevancy.success": 1,
        },
      },
      {
        query: "q2",
        doc: "sky.md",
        system: "rag-v2",
        metrics: {
          success: 0,
          Faithfulness: 0.25,
          "Faithfulness.success": 0,
          "Answer Relevancy": null,
        },
      },
    ]);
    expect(read.notes).toContain(
      "DeepEval: metric Answer Relevancy has no score for 1 test cases in run.json",
    );
  });

  it("reads the { testRunData } wrapper and falls back to the file's name", async () => {
    const content = {
      kind: "json" as const,
      value: {
        testRunData: {
          testCases: [
            {
              name: "a",
              success: true,
              metricsData: [{ name: "m", score: 0.5 }],
              metadata: { d: "x" },
            },
          ],
        },
      },
    };
    const read = deepevalFormat.toRows(content, {
      file: "dir/latest.json",
      docPath: ["metadata", "d"],
    });
    expect(read.rows[0]).toMatchObject({
      query: "a",
      doc: "x",
      system: "latest",
      metrics: { m: 0.5 },
    });
  });

  it("asks for --doc and refuses other shapes in one line", async () => {
    const content = await load("deepeval-test-run.json");
    expect(() => deepevalFormat.toRows(content, { file: "run.json", docPath: null })).toThrow(
      "run.json: name the document field with `doc` (e.g. `doc` metadata.source_doc); fields seen in the first item: name, input, actualOutput, metadata.source_doc",
    );
    expect(() =>
      deepevalFormat.toRows({ kind: "json", value: [] }, { file: "x.json", docPath: ["d"] }),
    ).toThrow(/x.json: not a DeepEval test run/);
    expect(() =>
      deepevalFormat.toRows(
        { kind: "json", value: { testCases: [], testPassed: 0 } },
        { file: "x.json", docPath: ["d"] },
      ),
    ).toThrow("x.json: the DeepEval test run holds no test cases");
  });
});

// deepeval's own test run with a trace (deepeval/inspect/fixtures/test_run_sample.json; README).
const realDir = join(import.meta.dirname, "../../fixtures/realTools/deepeval");
const SAMPLE = "test_run_sample.json";
const sampleRun = () =>
  JSON.parse(readFileSync(join(realDir, SAMPLE), "utf8")) as Record<string, any>;
const SPAN_LISTS = ["baseSpans", "agentSpans", "llmSpans", "retrieverSpans", "toolSpans"];

describe("deepeval reader: metrics at trace level", () => {
  it("reads a real traced run: case metrics once (the trace's are copies), each span's metric as <span>/<metric>", () => {
    const run = sampleRun();
    const [c] = run.testCases;
    // Recomputed from the raw file: case-level scores, and every span metric by span name.
    const expected: Record<string, number | null> = { success: c.success ? 1 : 0 };
    for (const m of c.metricsData) {
      expected[m.name] = m.score;
      expected[`${m.name}.success`] = m.success ? 1 : 0;
    }
    for (const m of c.trace.metricsData) expect(expected[m.name]).toBe(m.score);
    let spanMetrics = 0;
    for (const list of SPAN_LISTS)
      for (const span of c.trace[list] ?? [])
        for (const m of span.metricsData ?? []) {
          expected[`${span.name}/${m.name}`] = m.score;
          expected[`${span.name}/${m.name}.success`] = m.success ? 1 : 0;
          spanMetrics++;
        }
    expect(spanMetrics).toBe(6);
    const read = deepevalFormat.toRows(
      { kind: "json", value: run },
      { file: SAMPLE, docPath: ["name"] },
    );
    expect(read.rows).toEqual([
      {
        query: "sample_test_case",
        doc: "sample_test_case",
        system: "test_run_sample",
        metrics: expected,
      },
    ]);
    // Faithfulness is scored at case level and in two llm spans: three metrics, none merged.
    expect(read.rows[0]?.metrics).toMatchObject({
      Faithfulness: 0.45,
      "rerank_chunks/Faithfulness": 0.91,
      "validate_facts/Faithfulness": 0.88,
    });
  });

  it("imitation: a traced case with no case-level metricsData reads its trace's metrics", () => {
    const run = sampleRun();
    const trace = run.testCases[0].trace;
    run.testCases[0].metricsData = [];
    const read = deepevalFormat.toRows(
      { kind: "json", value: run },
      { file: "t.json", docPath: ["name"] },
    );
    for (const m of trace.metricsData) expect(read.rows[0]?.metrics[m.name]).toBe(m.score);
  });

  it("imitation: one span name scored twice in a case is averaged, with a note saying so", () => {
    const run = sampleRun();
    const tool = run.testCases[0].trace.toolSpans[0];
    const again = structuredClone(tool);
    again.uuid = "second-call";
    again.metricsData[0].score = 0.5;
    run.testCases[0].trace.toolSpans.push(again);
    const read = deepevalFormat.toRows(
      { kind: "json", value: run },
      { file: "t.json", docPath: ["name"] },
    );
    const name = `${tool.name}/${tool.metricsData[0].name}`;
    expect(read.rows[0]?.metrics[name]).toBe((tool.metricsData[0].score + 0.5) / 2);
    expect(read.notes).toContain(
      `DeepEval: ${name} scores several spans of one test case (1 cases, up to 2 spans); each case's value is their mean`,
    );
  });

  it("imitation: a trace score that differs from the case's copy, or a metric scored twice, is refused", () => {
    const run = sampleRun();
    run.testCases[0].trace.metricsData[1].score = 0.1;
    expect(() =>
      deepevalFormat.toRows({ kind: "json", value: run }, { file: "t.json", docPath: ["name"] }),
    ).toThrow(
      "t.json: test case sample_test_case scores Faithfulness 0.45 in its metricsData and 0.1 in its trace's; DeepEval writes one score per trace metric, so the file was changed or mixes runs",
    );
    const twice = sampleRun();
    twice.testCases[0].metricsData.push(twice.testCases[0].metricsData[0]);
    expect(() =>
      deepevalFormat.toRows({ kind: "json", value: twice }, { file: "t.json", docPath: ["name"] }),
    ).toThrow(
      "t.json: test case sample_test_case scores Answer Relevancy twice in its metricsData; each metric needs one score per test case",
    );
  });
});
