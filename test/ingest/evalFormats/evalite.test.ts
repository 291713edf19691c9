import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaliteFormat } from "../../../src/ingest/evalFormats/evalite.js";
import { readEvalContent } from "../../../src/ingest/evalFormats/readEvalContent.js";

const dir = join(import.meta.dirname, "../../fixtures/evalFormats");
const load = (name: string) => readEvalContent(join(dir, name), name);

describe("evalite reader", () => {
  it("detects an --outputPath export and not the other tools' files", async () => {
    expect(evaliteFormat.detect(await load("evalite-output.json"))).toBe(true);
    for (const other of ["deepeval-test-run.json", "braintrust-experiment.jsonl"])
      expect(evaliteFormat.detect(await load(other))).toBe(false);
  });

  it("reads each input once per eval, the document inside input, trials averaged", async () => {
    const content = await load("evalite-output.json");
    const read = evaliteFormat.toRows(content, {
      file: "out/before.json",
      docPath: ["input", "article"],
    });
    expect(read.rows).toEqual([
      {
        query: '{"article":"tides.md","question":"What causes tides?"}',
        doc: "tides.md",
        system: "RAG QA [small] (before)",
        metrics: { Levenshtein: 0.75, Faithful: 0.5 },
      },
      {
        query: '{"article":"sky.md","question":"Why is the sky blue?"}',
        doc: "sky.md",
        system: "RAG QA [small] (before)",
        metrics: { Levenshtein: 1, Faithful: null },
      },
    ]);
    expect(read.notes).toContain(
      "evalite: 1 repeated inputs (trials) in out/before.json; their scores are averaged",
    );
  });

  it("asks for --doc and refuses other shapes in one line", async () => {
    const content = await load("evalite-output.json");
    expect(() => evaliteFormat.toRows(content, { file: "o.json", docPath: null })).toThrow(
      "o.json: name the document field with --doc (e.g. --doc input.article); fields seen in the first item: input.question, input.article",
    );
    expect(() =>
      evaliteFormat.toRows({ kind: "json", value: {} }, { file: "x.json", docPath: ["d"] }),
    ).toThrow(/x.json: not an evalite export/);
    expect(() =>
      evaliteFormat.toRows(
        { kind: "json", value: { run: { runType: "full" }, evals: [] } },
        { file: "x.json", docPath: ["d"] },
      ),
    ).toThrow("x.json: the evalite export holds no results");
  });
});
