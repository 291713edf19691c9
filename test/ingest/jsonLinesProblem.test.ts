// Files read as JSON Lines that are not (hand-made imitations of what users give): a JSON array,
// a document over several lines, a line that is not JSON, and a file cut off mid-line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RagciError } from "../../src/core/errors.js";
import { readEvalContent, sniffEvalFormat } from "../../src/ingest/evalFormats/readEvalContent.js";
import { readPairedResults, readResults } from "../../src/ingest/index.js";
import { jsonLinesProblemOfText } from "../../src/ingest/jsonLinesProblem.js";
import { readFacetCells } from "../../src/ingest/readFacetCells.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(RagciError);
    return (error as Error).message;
  }
  throw new Error("expected a RagciError");
}

const records = [
  { doc_id: "a", query_id: "q1", hit5: 1 },
  { doc_id: "a", query_id: "q2", hit5: 0 },
  { doc_id: "b", query_id: "q3", hit5: 1 },
];
const lines = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).join("\n");

describe("a file read as JSON Lines that is not (imitations)", () => {
  it("a JSON array of records, on one line or pretty-printed: refused with the conversion", async () => {
    for (const [name, text] of [
      ["one.json", JSON.stringify(records)],
      ["pretty.json", JSON.stringify(records, null, 2)],
    ] as const) {
      const file = write(name, text);
      expect(await refusal(() => readResults({ file, displayName: name, metrics: ["hit5"] }))).toBe(
        `${name}: a JSON array, but ragci reads JSON Lines (one object per line); convert it, e.g. \`jq -c '.[]' ${name} > rows.jsonl\`, and give that`,
      );
    }
  });

  it("the array converted as the message says (one object per line) reads", async () => {
    const file = write("rows.jsonl", `${lines(records)}\n`);
    const table = await readResults({ file, metrics: ["hit5"] });
    expect(table.groups[0]?.stats.ids).toEqual(["a", "b"]);
    expect(Array.from(table.groups[0]?.stats.s ?? [])).toEqual([1, 1]);
  });

  it("one JSON object over several lines is named as such, with what to do", async () => {
    const file = write("doc.json", JSON.stringify({ rows: records }, null, 2));
    expect(
      await refusal(() => readResults({ file, displayName: "doc.json", metrics: ["hit5"] })),
    ).toBe(
      "doc.json: one JSON document written over several lines, but ragci reads JSON Lines (one object per line); if a tool wrote it, name the tool with `format`, else write one record per line (e.g. `jq -c '.[]'` for an array of records)",
    );
  });

  it("a line that is not JSON between JSON lines is named by its line", () => {
    const text = `${lines(records.slice(0, 2))}\n\n{"doc_id": "b", hit5: 1}\n${lines(records.slice(2))}\n`;
    expect(jsonLinesProblemOfText(text, "mid.jsonl")?.message).toBe(
      "mid.jsonl line 4: not JSON, while JSON Lines hold one JSON object per line; fix or remove the line",
    );
    expect(jsonLinesProblemOfText(`${lines(records)}\n`, "fine.jsonl")).toBeNull();
    // NaN as Python writes it (DuckDB reads it too) is JSON here: the cut line is the one named.
    const nan = `{"doc_id": "a", "hit5": NaN}\n${lines(records)}\n{"doc_id": "b", "hit`;
    expect(jsonLinesProblemOfText(nan, "nan.jsonl")?.message).toBe(
      "nan.jsonl line 5: the last line is not complete JSON (is the file cut off?); write the file again",
    );
  });

  // DuckDB's first look (its sample) does not reach the cut line here: the failure comes from
  // the full read, where DuckDB names line 30,002 of a file of 30,001 lines.
  it("a file cut off after 30,000 lines: the last line is named (one system, paired, trials)", async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => ({
      doc_id: `d${i % 500}`,
      query_id: `q${i}`,
      system: i % 2 ? "A" : "B",
      hit5: i % 3 === 0 ? 1 : 0,
    }));
    const text = `${lines(rows)}\n{"doc_id":"d1","query_id":"q3`;
    const file = write("cut.jsonl", text);
    const expected =
      "cut.jsonl line 30001: the last line is not complete JSON (is the file cut off?); write the file again";
    expect(text.split("\n")).toHaveLength(30_001);
    expect(
      await refusal(() =>
        readResults({ file, displayName: "cut.jsonl", metrics: ["hit5"], system: "system" }),
      ),
    ).toBe(expected);
    expect(
      await refusal(() =>
        readPairedResults({
          inputs: [{ path: file, displayName: "cut.jsonl" }],
          system: "system",
          metrics: ["hit5"],
          pairs: () => [["A", "B"]],
        }),
      ),
    ).toBe(expected);
    const faceted = `${lines(rows.map((r, i) => ({ ...r, trial: String(i % 2) })))}\n{"doc_id":"d1"`;
    const facetFile = write("cut-trials.jsonl", faceted);
    expect(
      await refusal(() =>
        readFacetCells({
          path: facetFile,
          file: "cut-trials.jsonl",
          format: "jsonl",
          metrics: ["hit5"],
          system: "system",
          trial: "trial",
        }),
      ),
    ).toBe(
      "cut-trials.jsonl line 30001: the last line is not complete JSON (is the file cut off?); write the file again",
    );
  });
});

describe("a tool's JSON lines cut off (imitation: promptfoo's results.jsonl, last line cut)", () => {
  const real = join(import.meta.dirname, "../fixtures/realTools/promptfoo/results.jsonl");
  const whole = readFileSync(real, "utf8").split("\n");
  const cut = `${whole.slice(0, 10).join("\n")}\n${(whole[10] as string).slice(0, 500)}`;

  it("is still told to be promptfoo's, and its line 11 is named", async () => {
    const path = write("results.jsonl", cut);
    expect((await sniffEvalFormat(path))?.name).toBe("promptfoo");
    expect(await refusal(() => readEvalContent(path, "results.jsonl"))).toBe(
      "results.jsonl line 11: the last line is not complete JSON (is the file cut off?); write the file again",
    );
  });

  it("the uncut file reads as JSON lines", async () => {
    const content = await readEvalContent(real, "results.jsonl");
    expect(content.kind).toBe("jsonl");
  });
});

describe("a tool's JSON document cut off (imitation: promptfoo's results.json, first 20,000 bytes)", () => {
  const real = join(import.meta.dirname, "../fixtures/realTools/promptfoo/results.json");
  const cut = readFileSync(real, "utf8").slice(0, 20_000);
  const expected =
    "results.json: one JSON document that ends before it closes (is the file cut off?); write the file again";

  it("read as the tool's output (--format promptfoo) or as a table, it is said to end early", async () => {
    const path = write("results.json", cut);
    expect(await refusal(() => readEvalContent(path, "results.json"))).toBe(expected);
    expect(
      await refusal(() =>
        readResults({ file: path, displayName: "results.json", metrics: ["hit5"] }),
      ),
    ).toBe(expected);
  });

  it("a document broken inside is named by the line JSON.parse stopped at", async () => {
    const text = '{\n  "a": 1\n  "b": 2\n}\n';
    const path = write("broken.json", text);
    // JSON.parse's words (V8's) between the parentheses.
    const message =
      /^broken\.json line 3: not valid JSON \([^()]+\); fix the file or write it again$/;
    expect(await refusal(() => readEvalContent(path, "broken.json"))).toMatch(message);
    expect(
      await refusal(() => readResults({ file: path, displayName: "broken.json", metrics: ["a"] })),
    ).toMatch(message);
    // Text after the document closes: its line, V8's words without the position.
    const after = write("after.json", '{\n  "a": 1\n}\n  x\n');
    expect(await refusal(() => readEvalContent(after, "after.json"))).toMatch(
      /^after\.json line 4: not valid JSON \([^()]*non-whitespace[^()]*\); fix the file or write it again$/,
    );
  });
});
