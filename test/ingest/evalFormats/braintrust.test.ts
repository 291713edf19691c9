import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { braintrustFormat } from "../../../src/ingest/evalFormats/braintrust.js";
import { readEvalContent } from "../../../src/ingest/evalFormats/readEvalContent.js";

const dir = join(import.meta.dirname, "../../fixtures/evalFormats");
const load = (name: string) => readEvalContent(join(dir, name), name);

// Rows the Braintrust SDK logged for an Eval of 5 items in 5 cases, one question asked in four
// (test/fixtures/realTools/braintrust/README.md).
const realFile = join(import.meta.dirname, "../../fixtures/realTools/braintrust/five-cases.jsonl");

describe("braintrust reader, on rows the SDK wrote", () => {
  it("5 items in 5 cases read as 5 documents, the mean recomputed from the rows (0.8)", async () => {
    const rows = readFileSync(realFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // Recomputed: each root span (no parents) is an item; its score is on its scorer span.
    const roots = rows.filter((r) => !r.span_parents);
    const pass = roots.map(
      (root) => rows.find((r) => r.root_span_id === root.root_span_id && r.scores)?.scores.pass,
    );
    const truth = pass.reduce((a, b) => a + b, 0) / pass.length;
    const read = braintrustFormat.toRows(await readEvalContent(realFile, "five-cases.jsonl"), {
      file: "five-cases.jsonl",
      docPath: ["metadata", "case"],
    });
    expect(read.rows).toHaveLength(roots.length);
    expect(new Set(read.rows.map((r) => r.doc))).toEqual(
      new Set(roots.map((r) => r.metadata.case)),
    );
    expect(read.rows.map((r) => r.doc).sort()).toEqual([
      "case-1",
      "case-2",
      "case-3",
      "case-4",
      "case-5",
    ]);
    const mean = read.rows.reduce((a, r) => a + Number(r.metrics.pass), 0) / read.rows.length;
    expect(mean).toBe(truth);
    expect(truth).toBe(0.8);
  });
});

describe("braintrust reader, a row given twice (the SDK's rows, one repeated)", () => {
  it("a root span twice is refused, not averaged as a trial of its query", async () => {
    const rows = readFileSync(realFile, "utf8").trim().split("\n");
    const root = JSON.parse(rows[0] as string);
    // The SDK starts one root span per input and trial (runEvaluator): every span_id once.
    const roots = rows.map((l) => JSON.parse(l)).filter((r) => !r.span_parents);
    expect(new Set(roots.map((r) => r.span_id)).size).toBe(roots.length);
    const content = {
      kind: "jsonl" as const,
      values: [...rows, rows[0]].map((l) => JSON.parse(l as string)),
    };
    expect(() =>
      braintrustFormat.toRows(content, { file: "twice.jsonl", docPath: ["metadata", "case"] }),
    ).toThrow(
      `twice.jsonl: root span ${root.span_id} appears twice in the Braintrust rows; a root span is one result (each trial has its own), so the file holds a row twice: keep each row once`,
    );
  });
});

describe("braintrust reader", () => {
  it("detects experiment rows and not the other tools' files", async () => {
    expect(braintrustFormat.detect(await load("braintrust-experiment.jsonl"))).toBe(true);
    for (const other of ["deepeval-test-run.json", "evalite-output.json"])
      expect(braintrustFormat.detect(await load(other))).toBe(false);
  });

  it("reads one item per root span, its dataset record or input the query, with scores from the root or its scorer spans", async () => {
    const content = await load("braintrust-experiment.jsonl");
    const read = braintrustFormat.toRows(content, {
      file: "exp-a.jsonl",
      docPath: ["metadata", "source_doc"],
    });
    expect(read.rows).toEqual([
      {
        // Run from a dataset: the record is the query (the same in every experiment on it).
        query: "dataset record rec1",
        doc: "tides.md",
        system: "exp-a",
        metrics: { Factuality: 0.6 },
      },
      {
        query: 'sky.md: {"question":"Why is the sky blue?"}',
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
    expect(read.rows).toEqual([{ query: "doc: q", doc: "doc", system: "e", metrics: { s: 0.5 } }]);
    expect(read.notes[1]).toBe(
      "Braintrust: 1 result repeats a query of the same document and experiment (trials) in e.json; their scores are averaged",
    );
  });

  // Hand-written rows (imitation, to the SDK's ExperimentEvent): 5 items in 5 cases, one input
  // asked in four of them; the old reader, keyed by input, read 2 items with mean 0.875.
  const cases: [string, string, number][] = [
    ["case-1", "What is the dose?", 1],
    ["case-2", "Is it safe?", 1],
    ["case-3", "Is it safe?", 1],
    ["case-4", "Is it safe?", 1],
    ["case-5", "Is it safe?", 0],
  ];
  const root = ([c, input, pass]: [string, string, number], i: number) => ({
    id: `row-${i}`,
    experiment_id: "exp",
    span_id: `span-${i}`,
    root_span_id: `span-${i}`,
    span_parents: [],
    is_root: true,
    input,
    metadata: { case: c },
    scores: { pass },
  });

  it("hand-written rows (imitation): one input in five cases is five items, never merged across documents", () => {
    const read = braintrustFormat.toRows(
      { kind: "jsonl", values: cases.map(root) },
      { file: "exp.jsonl", docPath: ["metadata", "case"] },
    );
    expect(new Set(read.rows.map((r) => r.doc)).size).toBe(cases.length);
    expect(read.rows).toHaveLength(cases.length);
    const mean = read.rows.reduce((a, r) => a + Number(r.metrics.pass), 0) / read.rows.length;
    expect(mean).toBe(cases.reduce((a, [, , pass]) => a + pass, 0) / cases.length);
    expect(mean).toBe(0.8);
    expect(read.notes).toHaveLength(1);
  });

  it("hand-written rows (imitation): a dataset record (origin.id) is the query, its trials averaged", () => {
    const event = (i: number, record: string, pass: number) => ({
      ...root(["case-1", "same question", pass], i),
      origin: { object_type: "dataset", object_id: "ds", id: record, _xact_id: "1" },
    });
    const read = braintrustFormat.toRows(
      { kind: "json", value: [event(0, "r1", 1), event(1, "r1", 0), event(2, "r2", 1)] },
      { file: "exp.json", docPath: ["metadata", "case"] },
    );
    expect(read.rows).toEqual([
      { query: "dataset record r1", doc: "case-1", system: "exp", metrics: { pass: 0.5 } },
      { query: "dataset record r2", doc: "case-1", system: "exp", metrics: { pass: 1 } },
    ]);
  });

  it("asks for --doc and refuses other shapes in one line", async () => {
    const content = await load("braintrust-experiment.jsonl");
    expect(() => braintrustFormat.toRows(content, { file: "e.jsonl", docPath: null })).toThrow(
      "e.jsonl: name the document field with `doc` (e.g. `doc` metadata.source_doc); fields seen in the first item: input.question, expected, metadata.source_doc",
    );
    expect(() =>
      braintrustFormat.toRows(
        { kind: "json", value: [{ a: 1 }] },
        { file: "x.json", docPath: ["d"] },
      ),
    ).toThrow(/x.json: not Braintrust experiment rows/);
  });
});
