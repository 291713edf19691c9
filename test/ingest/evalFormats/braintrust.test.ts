import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { braintrustFormat } from "../../../src/ingest/evalFormats/braintrust.js";
import { readEvalContent } from "../../../src/ingest/evalFormats/readEvalContent.js";

const dir = join(import.meta.dirname, "../../fixtures/evalFormats");
const load = (name: string) => readEvalContent(join(dir, name), name);

describe("braintrust reader", () => {
  it("detects experiment rows and not the other tools' files", async () => {
    expect(braintrustFormat.detect(await load("braintrust-experiment.jsonl"))).toBe(true);
    for (const other of ["deepeval-test-run.json", "evalite-output.json"])
      expect(braintrustFormat.detect(await load(other))).toBe(false);
  });

  it("reads one item per root span, with scores from the root or its scorer spans", async () => {
    const content = await load("braintrust-experiment.jsonl");
    const read = braintrustFormat.toRows(content, {
      file: "exp-a.jsonl",
      docPath: ["metadata", "source_doc"],
    });
    expect(read.rows).toEqual([
      {
        query: '{"question":"What causes tides?"}',
        doc: "tides.md",
        system: "exp-a",
        metrics: { Factuality: 0.6 },
      },
      {
        query: '{"question":"Why is the sky blue?"}',
        doc: "sky.md",
        system: "exp-a",
        metrics: { Factuality: 1 },
      },
    ]);
  });

  it("reads the fetch API's { events } and averages trials of one input", async () => {
    const row = (id: string, score: number) => ({
      id,
      experiment_id: "e",
      span_id: id,
      root_span_id: id,
      span_parents: [],
      input: "q",
      metadata: { d: "doc" },
      scores: { s: score },
    });
    const read = braintrustFormat.toRows(
      { kind: "json", value: { events: [row("a", 1), row("b", 0)] } },
      { file: "e.json", docPath: ["metadata", "d"] },
    );
    expect(read.rows).toEqual([{ query: "q", doc: "doc", system: "e", metrics: { s: 0.5 } }]);
    expect(read.notes[1]).toMatch(/1 repeated inputs \(trials\)/);
  });

  it("asks for --doc and refuses other shapes in one line", async () => {
    const content = await load("braintrust-experiment.jsonl");
    expect(() => braintrustFormat.toRows(content, { file: "e.jsonl", docPath: null })).toThrow(
      "e.jsonl: name the document field with --doc (e.g. --doc metadata.source_doc); fields seen in the first item: input.question, expected, metadata.source_doc",
    );
    expect(() =>
      braintrustFormat.toRows(
        { kind: "json", value: [{ a: 1 }] },
        { file: "x.json", docPath: ["d"] },
      ),
    ).toThrow(/x.json: not Braintrust experiment rows/);
  });
});
