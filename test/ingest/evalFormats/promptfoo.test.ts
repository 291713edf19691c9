import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EvalContent, EvalRow } from "../../../src/ingest/evalFormats/evalRows.js";
import { promptfooFormat } from "../../../src/ingest/evalFormats/promptfoo.js";
import {
  readEvalContent,
  sniffEvalFormat,
} from "../../../src/ingest/evalFormats/readEvalContent.js";

// Files written by promptfoo 0.123.1 itself (see the folder's README.md for the commands).
const dir = join(import.meta.dirname, "../../fixtures/realTools/promptfoo");
const FILES = [
  "results.json",
  "results-two-prompts.json",
  "results-errors.json",
  "results.jsonl",
  "results-repeat2.json",
  "results-test-repeat.json",
] as const;
const load = (name: string) => readEvalContent(join(dir, name), name);
const DOC = ["metadata", "doc"];

/** The raw EvaluateResults of a fixture, parsed here without the reader. */
type Raw = {
  testIdx: number;
  failureReason: number;
  provider: { label: string };
  prompt: { label: string };
  testCase: { description: string; metadata: { doc: string } };
  vars: { query_id: string };
  score: number;
  success: boolean;
  namedScores: Record<string, number>;
};
function raw(name: string): Raw[] {
  const text = readFileSync(join(dir, name), "utf8");
  if (name.endsWith(".jsonl"))
    return text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
  return JSON.parse(text).results.results;
}

/** The table the provider answered from: system/query → hit5, rr. */
const table = new Map(
  readFileSync(join(dir, "retrieval.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [doc, query, system, hit5, rr] = line.split(",");
      return [`${system}/${query}`, { doc, hit5: Number(hit5), rr: Number(rr) }] as const;
    }),
);

/** Mean of each (system, document, metric) over the given per-item values. */
function documentMeans(
  items: readonly { system: string; doc: string; metrics: Record<string, number | null> }[],
): Record<string, number> {
  const sums = new Map<string, number[]>();
  for (const item of items)
    for (const [metric, value] of Object.entries(item.metrics)) {
      const key = `${item.system}/${item.doc}/${metric}`;
      sums.set(key, [...(sums.get(key) ?? []), value as number]);
    }
  return Object.fromEntries(
    [...sums].map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / v.length]),
  );
}

/** A raw result's values as promptfoo wrote them. */
function rawMetrics(r: Raw): Record<string, number> {
  return {
    score: r.score,
    success: r.success ? 1 : 0,
    hit5: r.namedScores.hit5 as number,
    rr: r.namedScores.rr as number,
  };
}

function rowMeans(rows: readonly EvalRow[]): Record<string, number> {
  return documentMeans(rows.map((r) => ({ ...r, doc: r.doc as string })));
}

/** Each (system, document) mean of the tests' means over their repeats, from the raw results. */
function meansOverRepeats(results: readonly Raw[]): {
  means: Record<string, number>;
  trials: number[];
} {
  const byTest = new Map<string, Raw[]>();
  for (const r of results) {
    const key = `${r.provider.label}/${r.testCase.description}`;
    byTest.set(key, [...(byTest.get(key) ?? []), r]);
  }
  const means = documentMeans(
    [...byTest.values()].map((trials) => {
      const first = trials[0] as Raw;
      const metrics = Object.fromEntries(
        Object.keys(rawMetrics(first)).map((m) => [
          m,
          trials.reduce((s, t) => s + (rawMetrics(t)[m] as number), 0) / trials.length,
        ]),
      );
      return { system: first.provider.label, doc: first.testCase.metadata.doc, metrics };
    }),
  );
  return { means, trials: [...byTest.values()].map((t) => t.length) };
}

const read = async (name: string, errors?: "apart" | "failures") =>
  promptfooFormat.toRows(await load(name), {
    file: name,
    docPath: DOC,
    ...(errors ? { errors } : {}),
  });

describe("promptfoo reader on files promptfoo 0.123.1 wrote", () => {
  it("detects the -o results.json summary (V3) and the -o results.jsonl lines", async () => {
    for (const name of FILES) {
      expect(promptfooFormat.detect(await load(name))).toBe(true);
      expect((await sniffEvalFormat(join(dir, name)))?.name).toBe("promptfoo");
    }
  });

  it("two providers and one prompt: the systems are the provider labels, each document's means as in the raw file and the table", async () => {
    const { rows, notes } = await read("results.json");
    expect([...new Set(rows.map((r) => r.system))]).toEqual(["bm25", "tfidf"]);
    expect(rows).toHaveLength(2 * 34);
    const expected = documentMeans(
      raw("results.json").map((r) => ({
        system: r.provider.label,
        doc: r.testCase.metadata.doc,
        metrics: rawMetrics(r),
      })),
    );
    expect(rowMeans(rows)).toEqual(expected);
    // promptfoo's assertions reproduced the table the provider answered from.
    for (const r of raw("results.json")) {
      const truth = table.get(`${r.provider.label}/${r.vars.query_id}`);
      expect([r.namedScores.hit5, r.namedScores.rr]).toEqual([truth?.hit5, truth?.rr]);
    }
    expect(notes[0]).toContain("systems are the providers (label, else id)");
  });

  it("the JSONL lines read as the JSON summary, systems named by provider", async () => {
    const fromJsonl = await read("results.jsonl");
    const fromJson = await read("results.json");
    expect([...new Set(fromJsonl.rows.map((r) => r.system))]).toEqual(["bm25", "tfidf"]);
    const order = (rows: readonly EvalRow[]) =>
      [...rows].sort((a, b) => `${a.system}/${a.query}`.localeCompare(`${b.system}/${b.query}`));
    expect(order(fromJsonl.rows)).toEqual(order(fromJson.rows));
  });

  it("two prompts: each provider × prompt is a system named with the prompt's label, stated in a note", async () => {
    const { rows, notes } = await read("results-two-prompts.json");
    const systems = [...new Set(rows.map((r) => r.system))].sort();
    expect(systems).toEqual([
      "bm25 · question",
      "bm25 · question-with-hint",
      "tfidf · question",
      "tfidf · question-with-hint",
    ]);
    const expected = documentMeans(
      raw("results-two-prompts.json").map((r) => ({
        system: `${r.provider.label} · ${r.prompt.label}`,
        doc: r.testCase.metadata.doc,
        metrics: rawMetrics(r),
      })),
    );
    expect(rowMeans(rows)).toEqual(expected);
    expect(notes[0]).toContain(
      'the file has 2 prompts (question, question-with-hint), so each provider × prompt is a system, named "provider · prompt label"',
    );
  });

  it("provider errors (failureReason 2) are left out and counted, as promptfoo's summary counts them", async () => {
    const file = JSON.parse(readFileSync(join(dir, "results-errors.json"), "utf8"));
    const results = raw("results-errors.json");
    const errors = results.filter((r) => r.failureReason === 2);
    expect(errors.length).toBe(file.results.stats.errors);
    expect(new Set(errors.map((r) => r.provider.label))).toEqual(new Set(["tfidf"]));
    const { rows, notes } = await read("results-errors.json");
    expect(rows.filter((r) => r.system === "tfidf")).toHaveLength(34 - errors.length);
    expect(rowMeans(rows)).toEqual(
      documentMeans(
        results
          .filter((r) => r.failureReason !== 2)
          .map((r) => ({
            system: r.provider.label,
            doc: r.testCase.metadata.doc,
            metrics: rawMetrics(r),
          })),
      ),
    );
    expect(notes).toContain(
      `promptfoo: ${errors.length} of 34 items of system tfidf were provider errors (promptfoo's failureReason 2, which its summary counts as errors, not failures), left out; \`errorsAsFailures\` keeps them as failures`,
    );
  });

  it("errors: failures keeps provider errors as failures: score and success as promptfoo records them, named scores 0", async () => {
    const results = raw("results-errors.json");
    const { rows, notes } = await read("results-errors.json", "failures");
    expect(rows).toHaveLength(2 * 34);
    expect(rowMeans(rows)).toEqual(
      documentMeans(
        results.map((r) => ({
          system: r.provider.label,
          doc: r.testCase.metadata.doc,
          metrics:
            r.failureReason === 2
              ? { score: r.score, success: r.success ? 1 : 0, hit5: 0, rr: 0 }
              : rawMetrics(r),
        })),
      ),
    );
    expect(notes.join("\n")).toContain("kept as failures (`errorsAsFailures`)");
  });

  it("--repeat 2: a test's two repeats (two testIdx) are trials of one query, averaged, stated in a note", async () => {
    const results = raw("results-repeat2.json");
    // promptfoo numbered the 34 tests × 2 repeats as 68 testIdx.
    expect(new Set(results.map((r) => r.testIdx)).size).toBe(68);
    const { rows, notes } = await read("results-repeat2.json");
    expect(rows).toHaveLength(2 * 34);
    // Each query's value: the mean over the raw results of the same test (its description).
    const { means, trials } = meansOverRepeats(results);
    expect(trials.every((n) => n === 2)).toBe(true);
    expect(rowMeans(rows)).toEqual(means);
    expect(notes).toContain(
      "promptfoo ran each test 2 times (--repeat 2); a test's repeats are trials of one query, averaged (up to 2 per query)",
    );
  });
});

describe("promptfoo reader, a test's own repeat count (promptfoo 0.123.1's file)", () => {
  it("--repeat 2 with one test at options.repeat 3: that test's three repeats are one query", async () => {
    const results = raw("results-test-repeat.json");
    const { rows, notes } = await read("results-test-repeat.json");
    const { means, trials } = meansOverRepeats(results);
    expect(trials.sort((a, b) => a - b)).toEqual([2, 2, 2, 2, 3, 3]);
    expect(rows).toHaveLength(2 * 3);
    expect(rowMeans(rows)).toEqual(means);
    expect(notes).toContain(
      "promptfoo ran each test 2 times (--repeat 2, or the test's own options.repeat); a test's repeats are trials of one query, averaged (up to 3 per query)",
    );
  });
});

describe("promptfoo reader refuses what it cannot tell apart (real files, hand-edited)", () => {
  const summary = (name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

  it("two providers with the same label: a test seen twice in one system is refused", () => {
    const file = summary("results.json");
    for (const r of file.results.results) r.provider.label = "bm25";
    const content: EvalContent = { kind: "json", value: file };
    expect(() => promptfooFormat.toRows(content, { file: "same.json", docPath: DOC })).toThrow(
      "same.json: testIdx 0 of system bm25 appears twice (promptfoo's columns promptIdx 0 and 1); give the providers distinct labels so that each result belongs to one system",
    );
  });

  // What the refusals below rest on: promptfoo numbers a column's results over tests × repeats,
  // so no (promptIdx, testIdx) is written twice in one run (checked on every file it wrote here).
  it.each(FILES.filter((f) => f.endsWith(".json")))(
    "%s: each (promptIdx, testIdx) once, repeats included",
    (name) => {
      const results: { promptIdx: number; testIdx: number }[] = summary(name).results.results;
      const pairs = new Set(results.map((r) => `${r.promptIdx}/${r.testIdx}`));
      expect(pairs.size).toBe(results.length);
    },
  );

  it("one result given twice (the same id) is refused as a copy, not as two providers", () => {
    const file = summary("results.json");
    const first = file.results.results[0];
    file.results.results.push(JSON.parse(JSON.stringify(first)));
    const content: EvalContent = { kind: "json", value: file };
    expect(() => promptfooFormat.toRows(content, { file: "copy.json", docPath: DOC })).toThrow(
      `copy.json: testIdx 0 of system bm25 appears twice in promptfoo's column promptIdx 0, as the same result (id ${first.id}); promptfoo gives each result of a column its own testIdx (repeats too), so the file holds a result twice: keep one run's results, each once`,
    );
  });

  it("two runs' results in one file (one column, two ids) are refused, not read as repeats", async () => {
    // results.jsonl written twice into one file, the second run's results with their own ids.
    const lines = readFileSync(join(dir, "results.jsonl"), "utf8").trim().split("\n");
    const second = lines.map((l) => JSON.parse(l)).map((r) => ({ ...r, id: `run2-${r.id}` }));
    const content: EvalContent = {
      kind: "jsonl",
      values: [...lines.map((l) => JSON.parse(l)), ...second],
    };
    expect(() => promptfooFormat.toRows(content, { file: "two.jsonl", docPath: DOC })).toThrow(
      /^two\.jsonl: testIdx 0 of system bm25 appears twice in promptfoo's column promptIdx 0, as two results; .* so the file holds results of more than one run: keep one run's results, each once$/,
    );
  });

  it("repeats of one test with different documents are refused, never merged across documents", () => {
    const file = summary("results-repeat2.json");
    // The result's own metadata (promptfoo merges the provider's response metadata into it)
    // names another article for the second repeat of query 262 in bm25.
    const second = file.results.results.find(
      (r: Raw) => r.testIdx === 1 && r.provider.label === "bm25",
    );
    second.metadata.doc = "641";
    const content: EvalContent = { kind: "json", value: file };
    expect(() => promptfooFormat.toRows(content, { file: "docs.json", docPath: DOC })).toThrow(
      "docs.json: testIdx 0 and 1 of system bm25 have the same test case but documents 630 and 641 at `doc` metadata.doc; name a field that is the same for every repeat of a test",
    );
  });

  it("more identical tests than the run's --repeat is refused, not averaged", () => {
    const file = summary("results-repeat2.json");
    // Test 1 (query 276) made identical to test 0 (query 262): four results of one test case.
    for (const r of file.results.results)
      if (r.testCase.description === "query 276") {
        r.testCase = JSON.parse(JSON.stringify(file.results.results[0].testCase));
        r.vars = { ...file.results.results[0].vars };
      }
    const content: EvalContent = { kind: "json", value: file };
    expect(() => promptfooFormat.toRows(content, { file: "dup.json", docPath: DOC })).toThrow(
      /^dup\.json: testIdx 0, 1, 2 of system bm25 have the same vars, description and metadata, more than the 2 repeats promptfoo ran; ragci cannot tell them apart/,
    );
  });
});
