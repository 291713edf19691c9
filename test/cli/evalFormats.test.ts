import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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

/** Every analysis in a report (one, or under metrics / systems), found by its micro block. */
function analyses(node: unknown): Record<string, unknown>[] {
  if (node === null || typeof node !== "object") return [];
  const record = node as Record<string, unknown>;
  if ("micro" in record && "metric" in record) return [record];
  return Object.values(record).flatMap(analyses);
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
    expect(fromTool.difference).toEqual(fromTable.difference);
    expect(fromTool.systems).toEqual(["bm25", "tfidf"]);
    expect(String(fromTool.notices)).toContain("promptfoo: each test (testIdx) is a query");
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
    expect(fromTool.difference).toEqual(fromTable.difference);
    expect(String(fromTool.notices)).toContain("2 epochs per sample averaged");
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
      expect(tool["bm25/hit5"]).toEqual(table["/hit5"]);
      expect(tool["bm25/retrieval.rr"]).toEqual(table["/rr"]);
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
      expect(String(report.inputWarnings)).toMatch(
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
        JSON.stringify({ ...r, inputs: null, notices: null }).replace(
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
    expect(String(named.inputWarnings)).toContain("relstring left out");
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
