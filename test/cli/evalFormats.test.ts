import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { zipJsonMembers } from "../../src/ingest/evalFormats/zipMembers.js";
import { EXAMPLE, ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();
const FIXTURES = join(ROOT, "test/fixtures/evalFormats");

interface ExampleRow {
  readonly doc: string;
  readonly query: string;
  readonly system: string;
  readonly hit5: number;
  readonly rr: number;
}

/** The bundled example's rows (COVID-QA, BM25 and TF-IDF). */
const rows: ExampleRow[] = readFileSync(EXAMPLE, "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [doc, query, system, , , hit5, , rr] = line.split(",");
    return {
      doc: doc as string,
      query: query as string,
      system: system as string,
      hit5: Number(hit5),
      rr: Number(rr),
    };
  });
const queries = [...new Set(rows.map((r) => r.query))];

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Every analysis in an analyze report (v2: `analyses`, each naming its system and metric). */
function analyses(report: Record<string, any>): Record<string, unknown>[] {
  return report.analyses;
}

/** Each analysis's sizes, estimates and intervals, keyed by system/metric. */
function estimates(report: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    analyses(report).map((e) => [
      `${e.system ?? ""}/${e.metric}`,
      { documents: e.documents, results: e.results, micro: e.micro, macro: e.macro },
    ]),
  );
}

/** A promptfoo EvaluateResult for one row (provider = system, test = query). */
function promptfooResult(r: ExampleRow) {
  return {
    id: `${r.system}-${r.query}`,
    promptIdx: 0,
    testIdx: queries.indexOf(r.query),
    testCase: {
      vars: { question: `q${r.query}`, article: r.doc },
      metadata: { source_doc: r.doc },
    },
    promptId: "p1",
    provider: { id: `retriever:${r.system}`, label: r.system },
    prompt: { raw: "{{question}}", label: "retrieve" },
    vars: { question: `q${r.query}`, article: r.doc },
    success: r.hit5 === 1,
    score: r.rr,
    latencyMs: 3,
    failureReason: r.hit5 === 1 ? 0 : 1,
    namedScores: { hit5: r.hit5, rr: r.rr },
  };
}

const csvArgs = ["--doc", "doc_id", "--system", "system"];

describe("evaluation tools' outputs give the same answer as the per-query table", () => {
  const promptfoo = write(
    "results.json",
    JSON.stringify(
      {
        evalId: "eval-1",
        results: {
          version: 3,
          timestamp: "2026-12-04T00:00:00.000Z",
          results: rows.map(promptfooResult),
          prompts: [{ raw: "{{question}}", label: "retrieve", provider: "retriever:bm25" }],
          stats: { successes: 0, failures: 0, errors: 0, tokenUsage: {} },
        },
        config: {},
        shareableUrl: null,
      },
      null,
      2,
    ),
  );

  it("promptfoo -o results.json (OutputFile, EvaluateSummaryV3): analyze, doc in vars", () => {
    const fromTool = ragciJson([
      "analyze",
      promptfoo,
      "--doc",
      "vars.article",
      "--metric",
      "hit5,rr",
    ]);
    const fromTable = ragciJson(["analyze", EXAMPLE, ...csvArgs, "--metric", "hit5,rr"]);
    expect(estimates(fromTool)).toEqual(estimates(fromTable));
    const inputs = fromTool.inputs as { format: string; rows: number }[];
    expect(inputs[0]?.format).toBe("promptfoo");
    expect(inputs[0]?.rows).toBe(rows.length);
  });

  it("promptfoo -o results.jsonl (one EvaluateResult per line): compare, doc in the test case's metadata", () => {
    const jsonl = write(
      "results.jsonl",
      `${rows.map((r) => JSON.stringify(promptfooResult(r))).join("\n")}\n`,
    );
    const fromTool = ragciJson([
      "compare",
      jsonl,
      "--doc",
      "metadata.source_doc",
      "--metric",
      "hit5",
    ]);
    const fromTable = ragciJson(["compare", EXAMPLE, ...csvArgs, "--metric", "hit5"]);
    expect(fromTool.comparisons[0].difference).toEqual(fromTable.comparisons[0].difference);
    expect(fromTool.systems).toEqual(["bm25", "tfidf"]);
    expect(String(fromTool.notes)).toContain("promptfoo: each test is a query");
  });

  it("Inspect .json logs, one per model, two epochs averaged: compare", () => {
    const log = (system: string) =>
      write(
        `${system}-log.json`,
        JSON.stringify({
          version: 2,
          status: "success",
          eval: { task: "covidqa", model: system },
          samples: rows
            .filter((r) => r.system === system)
            .flatMap((r) =>
              [1, 2].map((epoch) => ({
                id: Number(r.query),
                epoch,
                input: "q",
                target: "",
                metadata: { source_doc: r.doc },
                scores: { hit5: { value: r.hit5 === 1 ? "C" : "I" } },
              })),
            ),
        }),
      );
    const fromTool = ragciJson([
      "compare",
      log("bm25"),
      log("tfidf"),
      "--doc",
      "metadata.source_doc",
      "--metric",
      "hit5",
    ]);
    const fromTable = ragciJson(["compare", EXAMPLE, ...csvArgs, "--metric", "hit5"]);
    // These logs have no run id: the system is task · model · file name.
    const { of, ...difference } = fromTool.comparisons[0].difference;
    expect(of).toBe("covidqa · tfidf · tfidf-log.json - covidqa · bm25 · bm25-log.json");
    expect(difference).toEqual({ ...fromTable.comparisons[0].difference, of: undefined });
    expect(String(fromTool.notes)).toContain("2 epochs per sample averaged");
  });

  // The committed logs hold the first 20 documents' bm25 results, each sample twice (epochs).
  const first20 = (() => {
    const docs = [...new Set(rows.map((r) => r.doc))].slice(0, 20);
    const kept = rows.filter((r) => r.system === "bm25" && docs.includes(r.doc));
    return write(
      "first20.csv",
      `doc_id,query_id,hit5,rr\n${kept.map((r) => `${r.doc},${r.query},${r.hit5},${r.rr}`).join("\n")}\n`,
    );
  })();

  for (const [name, compression] of [
    ["inspect-bm25.eval", "Zstandard"],
    ["inspect-bm25-deflate.eval", "deflate"],
  ] as const) {
    it(`an Inspect .eval log (zip, ${compression} members) reads like the table; a dict score gives one metric per key`, () => {
      const fromTool = ragciJson([
        "analyze",
        join(FIXTURES, name),
        "--doc",
        "metadata.source_doc",
        "--metric",
        "hit5,retrieval.rr",
      ]);
      const fromTable = ragciJson(["analyze", first20, "--doc", "doc_id", "--metric", "hit5,rr"]);
      const tool = estimates(fromTool);
      const table = estimates(fromTable);
      // The log has no run id: the system is task · model · file name.
      const system = `covidqa_retrieval · bm25 · ${name}`;
      expect(tool[`${system}/hit5`]).toEqual(table["/hit5"]);
      expect(tool[`${system}/retrieval.rr`]).toEqual(table["/rr"]);
    });
  }

  it("trec_eval -q output with --doc-map reads like the table", () => {
    const bm25 = rows.filter((r) => r.system === "bm25");
    // trec_eval prints "%-22s\t%s\t%6.4f": four decimals, so the table is rounded the same way.
    const lines = [
      ...bm25.flatMap((r) => [
        `${"recip_rank".padEnd(22)}\t${r.query}\t${r.rr.toFixed(4)}`,
        `${"success_5".padEnd(22)}\t${r.query}\t${r.hit5.toFixed(4)}`,
      ]),
      `${"runid".padEnd(22)}\tall\tbm25`,
      `${"recip_rank".padEnd(22)}\tall\t0.5000`,
    ];
    const trec = write("bm25.trec_eval", `${lines.join("\n")}\n`);
    const map = write(
      "docmap.csv",
      `query_id,doc\n${bm25.map((r) => `${r.query},${r.doc}`).join("\n")}\n`,
    );
    const rounded = write(
      "bm25-rounded.csv",
      `doc_id,query_id,rr\n${bm25.map((r) => `${r.doc},${r.query},${r.rr.toFixed(4)}`).join("\n")}\n`,
    );
    const fromTool = ragciJson(["analyze", trec, "--doc-map", map, "--metric", "recip_rank"]);
    const fromTable = ragciJson(["analyze", rounded, "--doc", "doc_id", "--metric", "rr"]);
    expect(estimates(fromTool)["bm25/recip_rank"]).toEqual(estimates(fromTable)["/rr"]);
  });
});

describe("promptfoo 0.123.1's own files (test/fixtures/realTools/promptfoo)", () => {
  const real = join(ROOT, "test/fixtures/realTools/promptfoo");
  const file = (name: string) => join(real, name);
  // The table promptfoo's provider answered from, read as a per-query table.
  const table = file("retrieval.csv");
  const tableArgs = ["--doc", "doc_id", "--system", "system"];
  const toolArgs = ["--doc", "metadata.doc"];

  it("two providers, one prompt: compare --system system=bm25,tfidf answers as the table", () => {
    const fromTool = ragciJson([
      "compare",
      file("results.json"),
      ...toolArgs,
      "--metric",
      "hit5",
      "--system",
      "system=bm25,tfidf",
    ]);
    const fromTable = ragciJson(["compare", table, ...tableArgs, "--metric", "hit5"]);
    expect(fromTool.systems).toEqual(["bm25", "tfidf"]);
    expect(fromTool.comparisons[0].difference).toEqual(fromTable.comparisons[0].difference);
  });

  it("two prompts: the systems carry the prompt's label, and one prompt's pair answers as the table", () => {
    const fromTool = ragciJson([
      "compare",
      file("results-two-prompts.json"),
      ...toolArgs,
      "--metric",
      "rr",
      "--system",
      "system=bm25 · question-with-hint,tfidf · question-with-hint",
    ]);
    const fromTable = ragciJson(["compare", table, ...tableArgs, "--metric", "rr"]);
    expect(fromTool.systems).toEqual(["bm25 · question-with-hint", "tfidf · question-with-hint"]);
    expect(fromTool.comparisons[0].difference.of).toBe(
      "tfidf · question-with-hint - bm25 · question-with-hint",
    );
    expect({ ...fromTool.comparisons[0].difference, of: "" }).toEqual({
      ...fromTable.comparisons[0].difference,
      of: "",
    });
    expect(String(fromTool.notes)).toContain("the file has 2 prompts");
  });

  it("provider errors are left out and reported; --errors-as-failures keeps them as 0", () => {
    type Result = { provider: { label: string }; failureReason: number; success: boolean };
    const results: Result[] = JSON.parse(readFileSync(file("results-errors.json"), "utf8")).results
      .results;
    const tfidf = results.filter((r) => r.provider.label === "tfidf");
    const errors = tfidf.filter((r) => r.failureReason === 2).length;
    const passed = tfidf.filter((r) => r.success).length;
    const args = [file("results-errors.json"), ...toolArgs, "--metric", "success"];
    const apart = ragciJson(["analyze", ...args, "--system", "system=tfidf"]);
    const left = analyses(apart)[0] as { results: number; micro: { estimate: number } };
    expect(left.results).toBe(tfidf.length - errors);
    expect(left.micro.estimate).toBe(passed / (tfidf.length - errors));
    expect(String(apart.notes)).toContain(
      `promptfoo: ${errors} of ${tfidf.length} items of system tfidf were provider errors`,
    );
    const kept = ragciJson([
      "analyze",
      ...args,
      "--system",
      "system=tfidf",
      "--errors-as-failures",
    ]);
    const all = analyses(kept)[0] as { results: number; micro: { estimate: number } };
    expect(all.results).toBe(tfidf.length);
    expect(all.micro.estimate).toBe(passed / tfidf.length);
    expect(String(kept.notes)).toContain("kept as failures (--errors-as-failures)");
  });

  it("--repeat 2: each test counted once, its two repeats averaged", () => {
    const args = [...toolArgs, "--metric", "hit5,rr", "--system", "system=bm25"];
    const repeated = ragciJson(["analyze", file("results-repeat2.json"), ...args]);
    const once = ragciJson(["analyze", file("results.json"), ...args]);
    // The provider answers each repeat alike, so the repeats' mean is the single run's value.
    expect(estimates(repeated)).toEqual(estimates(once));
    expect(String(repeated.notes)).toContain("promptfoo ran each test 2 times (--repeat 2)");
  });
});

describe("bad tool outputs get one clear line", () => {
  const small = write(
    "small.json",
    JSON.stringify({
      evalId: null,
      results: {
        version: 3,
        timestamp: "t",
        results: [
          promptfooResult(rows[0] as ExampleRow),
          { ...promptfooResult(rows[1] as ExampleRow), vars: {}, testCase: { vars: {} } },
        ],
        prompts: [],
        stats: {},
      },
      config: {},
      shareableUrl: null,
    }),
  );

  function failure(args: readonly string[]): string {
    const result = ragci(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    return lines[0] as string;
  }

  it("without --doc, names the fields it could use", () => {
    const line = failure(["analyze", small, "--metric", "hit5"]);
    expect(line).toContain("name the document field with --doc");
    expect(line).toContain("vars.article");
    expect(line).toContain("metadata.source_doc");
  });

  it("an item without the document field is counted and named", () => {
    const line = failure(["analyze", small, "--doc", "vars.article", "--metric", "hit5"]);
    expect(line).toContain(
      `1 of 2 items have no document at --doc vars.article (first: query ${queries.indexOf((rows[1] as ExampleRow).query)} of system bm25)`,
    );
  });

  it("a metric the tool did not record lists the ones it did", () => {
    const line = failure(["analyze", small, "--doc", "vars.article", "--metric", "ndcg"]);
    expect(line).toContain('no metric column "ndcg"');
    expect(line).toContain("rr");
    expect(line).toContain("hit5");
  });

  it("trec_eval output without --doc-map says what to give", () => {
    const trec = write("run.trec_eval", `${"recip_rank".padEnd(22)}\t1\t0.5000\nrunid\tall\tr1\n`);
    expect(failure(["analyze", trec, "--metric", "recip_rank"])).toContain("give --doc-map FILE");
  });

  it("compare refuses a mix of a tool's output and a table", () => {
    const line = failure(["compare", small, EXAMPLE, "--doc", "vars.article", "--metric", "hit5"]);
    expect(line).toContain(
      "is a results table while the other inputs are evaluation tools' outputs",
    );
  });
});

describe("DeepEval, Braintrust and evalite outputs are detected and read end to end", () => {
  // Each committed fixture has two items in two documents; the metric named is present on both.
  for (const [file, tool, doc, metric] of [
    ["deepeval-test-run.json", "deepeval", "metadata.source_doc", "Faithfulness"],
    ["braintrust-experiment.jsonl", "braintrust", "metadata.source_doc", null],
    ["evalite-output.json", "evalite", "input.article", null],
  ] as const) {
    it(`${tool}: detected from the content, each item one result of its document`, () => {
      const path = join(FIXTURES, file);
      const probe = ragci(["analyze", path, "--doc", doc]);
      const named = metric ?? /the file's metrics: ([^,)]+)/.exec(probe.stderr)?.[1];
      const args = ["analyze", path, "--doc", doc, ...(named ? ["--metric", named] : [])];
      const report = ragciJson(args);
      const inputs = report.inputs as { format: string }[];
      expect(inputs[0]?.format).toBe(tool);
      const [analysis] = analyses(report);
      expect(analysis?.documents).toBe(2);
      expect(String(report.notes)).toMatch(
        new RegExp(tool === "deepeval" ? "DeepEval" : tool, "i"),
      );
    });
  }

  it("without --metric, a file with several metrics names them", () => {
    const line = ragci([
      "analyze",
      join(FIXTURES, "deepeval-test-run.json"),
      "--doc",
      "metadata.source_doc",
    ]);
    expect(line.code).toBe(2);
    expect(line.stderr).toContain(
      "name the metric with --metric (the file's metrics: success, Faithfulness, Answer Relevancy",
    );
  });
});

describe("Inspect and DeepEval files written by the tools (test/fixtures/realTools)", () => {
  const inspectDir = join(ROOT, "test/fixtures/realTools/inspect");
  // Two runs of the popularity task on openai/gpt-4o-mini: 3 samples (cancelled) and 10.
  const logs = [
    "2025-05-12T20-28-13-04-00_popularity.json",
    "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval",
  ].map((f) => join(inspectDir, f));
  // Each log's run id and each sample's match (C 1, I 0), from the raw files: the JSON log, and
  // the zip's header.json and samples/*.json members.
  const match = (s: any): number => (s.scores.match.value === "C" ? 1 : 0);
  const truth = (() => {
    const json = JSON.parse(readFileSync(logs[0] as string, "utf8"));
    const members = zipJsonMembers(readFileSync(logs[1] as string), "log.eval");
    const zipSamples = [...members].filter(([n]) => n.startsWith("samples/")).map(([, v]) => v);
    return [
      { runId: json.eval.run_id, values: json.samples.map(match) as number[] },
      {
        runId: (members.get("header.json") as any).eval.run_id,
        values: zipSamples.map(match) as number[],
      },
    ];
  })();
  const runIds = ["7KyCuAQSqp76qKQZEKmG6M", "2wRuCQ9hGYaGPyAdoobgYV"];
  const systems = runIds.map((id) => `popularity · openai/gpt-4o-mini · ${id}`);

  it("two logs of one task and model are two systems in analyze, each with its own samples", () => {
    expect(truth.map((t) => t.runId)).toEqual(runIds);
    const report = ragciJson(["analyze", ...logs, "--doc", "id", "--metric", "match"]);
    const got = estimates(report) as Record<string, { documents: number; micro: any }>;
    expect(Object.keys(got)).toHaveLength(2);
    truth.forEach(({ values }, i) => {
      const analysis = got[`${systems[i]}/match`];
      expect(analysis?.documents).toBe(values.length);
      expect(analysis?.micro.estimate).toBe(values.reduce((a, b) => a + b, 0) / values.length);
    });
  });

  it("compare pairs two logs of one model (their common samples, --intersect)", () => {
    const report = ragciJson([
      "compare",
      ...logs,
      "--doc",
      "id",
      "--metric",
      "match",
      "--intersect",
    ]);
    expect([...report.systems].sort()).toEqual([...systems].sort());
    expect(report.comparisons[0].difference.documents).toBe(truth[0]?.values.length);
  });

  it("a header-only log (no samples key) gets one line: no samples, re-run with samples logged", () => {
    const log = join(
      inspectDir,
      "2024-08-29T15-11-17+00-00_popularity_5EAmX6wjMFqea6WY7XHzZp.json",
    );
    expect("samples" in JSON.parse(readFileSync(log, "utf8"))).toBe(false);
    const result = ragci(["analyze", log, "--doc", "id", "--metric", "match"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `ragci: ${log}: the Inspect log holds no samples (a header-only log, as --no-log-samples or log_samples=False writes); re-run the eval with samples logged`,
    );
  });

  it("imitation of a traced DeepEval run (deepeval's sample case, 4 cases in 2 documents): span metrics are read", () => {
    const sample = JSON.parse(
      readFileSync(join(ROOT, "test/fixtures/realTools/deepeval/test_run_sample.json"), "utf8"),
    );
    const [base] = sample.testCases;
    const scores = [0.91, 0.5, 0.25, 0.75];
    const cases = scores.map((score, i) => {
      const c = structuredClone(base);
      c.name = `case_${i}`;
      c.order = i;
      c.metadata = { source_doc: `doc${i % 2}` };
      c.trace.llmSpans[0].metricsData[0].score = score;
      return c;
    });
    const run = write("traced-run.json", JSON.stringify({ ...sample, testCases: cases }));
    const metric = `${base.trace.llmSpans[0].name}/${base.trace.llmSpans[0].metricsData[0].name}`;
    const report = ragciJson(["analyze", run, "--doc", "metadata.source_doc", "--metric", metric]);
    const [analysis] = analyses(report) as any[];
    expect(analysis.documents).toBe(2);
    expect(analysis.micro.estimate).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / 4, 15);
  });
});

describe("real evalite and Braintrust outputs: items keyed by id, never merged across documents", () => {
  const real = join(ROOT, "test/fixtures/realTools");
  const evaliteArgs = (file: string) => [
    "analyze",
    join(real, "evalite", file),
    "--doc",
    "expected.article",
    "--metric",
    "exact",
  ];

  /** The export's items, (article, question) pairs, each its trials' mean of `exact`. */
  function evaliteItems(): number[] {
    const raw = JSON.parse(readFileSync(join(real, "evalite/evalite-output.json"), "utf8"));
    const trials = new Map<string, number[]>();
    for (const r of raw.evals[0].results) {
      const key = JSON.stringify([r.expected.article, r.input.question]);
      const exact = r.scores.find((s: { name: string }) => s.name === "exact").score;
      trials.set(key, [...(trials.get(key) ?? []), exact]);
    }
    return [...trials.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
  }

  it("evalite's export of 3 questions asked of 10 articles (trialCount 2): 10 documents, 30 results", () => {
    const [analysis] = analyses(ragciJson(evaliteArgs("evalite-output.json")));
    const items = evaliteItems();
    expect(items).toHaveLength(30);
    expect(analysis?.documents).toBe(10);
    expect(analysis?.results).toBe(items.length);
    const micro = analysis?.micro as { estimate: number };
    expect(micro.estimate).toBeCloseTo(items.reduce((a, b) => a + b, 0) / items.length, 12);
  });

  it("evalite's SQLite store (node_modules/.evalite/cache.sqlite) reads as its export does", () => {
    const store = ragciJson(evaliteArgs("cache.sqlite"));
    expect((store.inputs as { format: string }[])[0]?.format).toBe("evalite");
    const [fromStore] = analyses(store);
    const [fromExport] = analyses(ragciJson(evaliteArgs("evalite-output.json")));
    for (const key of ["documents", "results", "micro", "macro"])
      expect(fromStore?.[key]).toEqual(fromExport?.[key]);
    expect(String(store.notes)).toContain("each eval's latest run is read");
  });

  it("a Braintrust SDK run of 5 items in 5 cases: 5 documents, mean 0.8 from the rows", () => {
    const file = join(real, "braintrust/five-cases.jsonl");
    const rows = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const pass = rows.filter((r) => r.scores).map((r) => r.scores.pass as number);
    const report = ragciJson(["analyze", file, "--doc", "metadata.case", "--metric", "pass"]);
    const [analysis] = analyses(report);
    expect(analysis?.documents).toBe(5);
    expect(analysis?.results).toBe(pass.length);
    const micro = analysis?.micro as { estimate: number };
    expect(micro.estimate).toBeCloseTo(pass.reduce((a, b) => a + b, 0) / pass.length, 12);
    expect(micro.estimate).toBeCloseTo(0.8, 12);
    // Every item its own query: nothing is said to be counted more than once.
    expect(String(report.notes)).not.toContain("appears");
  });
});

describe("trec_eval's own outputs (trec_eval 10.0, test/fixtures/realTools/trec_eval) end to end", () => {
  const TREC = join(ROOT, "test/fixtures/realTools/trec_eval");
  const allTrec = join(TREC, "all_trec.txt");
  const docMap = join(TREC, "doc-map.csv");
  const docOf = new Map(
    readFileSync(docMap, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",") as [string, string]),
  );

  /** The measure's per-query lines of the output, as a table of doc, query and value. */
  function tableOf(measure: string): string {
    const picked = readFileSync(allTrec, "utf8")
      .split("\n")
      .map((l) => l.split("\t").map((f) => f.trim()))
      .filter(([m, q]) => m === measure && q !== "all");
    expect(picked.length).toBeGreaterThan(0);
    return write(
      `${measure}.csv`,
      `doc_id,query_id,value\n${picked.map(([, q, v]) => `${docOf.get(q as string)},${q},${v}`).join("\n")}\n`,
    );
  }

  for (const [asked, measure] of [
    ["recip_rank", "recip_rank"],
    ["mrr", "recip_rank"],
    ["hit@5", "success_5"],
    ["ndcg@10", "ndcg_cut_10"],
    ["iprec_at_recall_0.10", "iprec_at_recall_0.10"],
  ] as const) {
    it(`-q -m all_trec with --doc-map and --metric ${asked} reads ${measure} like the table of its lines`, () => {
      const fromTool = ragciJson(["analyze", allTrec, "--doc-map", docMap, "--metric", asked]);
      const fromTable = ragciJson([
        "analyze",
        tableOf(measure),
        "--doc",
        "doc_id",
        "--metric",
        "value",
      ]);
      expect((fromTool.inputs as { format: string }[])[0]?.format).toBe("trec_eval");
      expect(estimates(fromTool)[`bm25-made-up/${measure}`]).toEqual(
        estimates(fromTable)["/value"],
      );
    });
  }

  it("compare: two trec_eval outputs (one run each) pair on the query like the table of their lines", () => {
    const rerank = join(TREC, "all_trec-rerank.txt");
    const rows = [allTrec, rerank].flatMap((file) => {
      const lines = readFileSync(file, "utf8")
        .split("\n")
        .map((l) => l.split("\t").map((f) => f.trim()));
      const runid = lines.find(([m]) => m === "runid")?.[2];
      return lines
        .filter(([m, q]) => m === "ndcg_cut_10" && q !== "all")
        .map(([, q, v]) => `${docOf.get(q as string)},${q},${runid},${v}`);
    });
    const table = write("ndcg-both.csv", `doc_id,query_id,system,value\n${rows.join("\n")}\n`);
    const fromTool = ragciJson([
      "compare",
      allTrec,
      rerank,
      "--doc-map",
      docMap,
      "--metric",
      "ndcg@10",
    ]);
    const fromTable = ragciJson([
      "compare",
      table,
      "--doc",
      "doc_id",
      "--system",
      "system",
      "--metric",
      "value",
    ]);
    // The metric as asked (compare names it so) or as resolved; the rest must agree exactly.
    const strip = (r: Record<string, any>) =>
      JSON.parse(
        JSON.stringify({ ...r, inputs: null, notes: null }).replace(
          /"(ndcg@10|ndcg_cut_10)"/g,
          '"value"',
        ),
      );
    expect((fromTool.inputs as { format: string }[]).map((i) => i.format)).toEqual([
      "trec_eval",
      "trec_eval",
    ]);
    expect(JSON.stringify(fromTool)).toContain("rerank-made-up");
    expect(strip(fromTool)).toEqual(strip(fromTable));
  });

  it("--format trec_eval reads -q -m all_trec output too", () => {
    const named = ragciJson([
      "analyze",
      allTrec,
      "--format",
      "trec_eval",
      "--doc-map",
      docMap,
      "--metric",
      "map",
    ]);
    const detected = ragciJson(["analyze", allTrec, "--doc-map", docMap, "--metric", "map"]);
    expect(estimates(named)).toEqual(estimates(detected));
    expect(String(named.notes)).toContain("relstring left out");
  });

  it("output without -q (only the qid all averages) says to run trec_eval with -q", () => {
    for (const format of [[], ["--format", "trec_eval"]]) {
      const result = ragci([
        "analyze",
        join(TREC, "all_trec-summary.txt"),
        ...format,
        "--doc-map",
        docMap,
        "--metric",
        "map",
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `ragci: ${join(TREC, "all_trec-summary.txt")}: has only the run's averages (qid all): run trec_eval with -q to print per-query values\n`,
      );
    }
  });
});
