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
      "run.json: name the document field with --doc (e.g. --doc metadata.source_doc); fields seen in the first item: name, input, actualOutput, metadata.source_doc",
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
