import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvalContent } from "../../src/ingest/evalFormats/readEvalContent.js";
import { trecRunFormat } from "../../src/ingest/evalFormats/trecRun.js";
import { readQrels } from "../../src/ingest/trecRun/readQrels.js";
import { EXAMPLE, ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";

// The bundled COVID-QA retrieval results: for each query, the rank at which BM25 and TF-IDF
// retrieved the gold article (empty: not retrieved), and the hit@k and reciprocal rank the file
// derives from it. Here the ranks become TREC runs and the gold articles qrels, and ragci's own
// scoring of the runs must give back the file's values exactly.
const dir = scratchDir();

interface ExampleRow {
  readonly doc: string;
  readonly query: string;
  readonly system: string;
  readonly rank: number | null;
  readonly hit5: number;
  readonly rr: number;
}

const rows: ExampleRow[] = readFileSync(EXAMPLE, "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [doc, query, system, rank, , hit5, , rr] = line.split(",") as string[];
    return {
      doc: doc as string,
      query: query as string,
      system: system as string,
      rank: rank === "" ? null : Number(rank),
      hit5: Number(hit5),
      rr: Number(rr),
    };
  });

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/**
 * A run where each query's gold article is at its rank, the other places filled with made-up
 * docnos (scores strictly decreasing, so no tie); a query whose gold article was not retrieved
 * gets ten filler documents.
 */
function runOf(system: string): string {
  const lines: string[] = [];
  for (const r of rows.filter((x) => x.system === system)) {
    const depth = Math.max(r.rank ?? 0, 10);
    for (let place = 1; place <= depth; place++) {
      const docno = place === r.rank ? `article-${r.doc}` : `filler-${r.query}-${place}`;
      lines.push(`${r.query} Q0 ${docno} ${place} ${depth - place + 1} ${system}`);
    }
  }
  return write(`run.${system}`, `${lines.join("\n")}\n`);
}

const bm25 = runOf("bm25");
const tfidf = runOf("tfidf");
const judged = [...new Map(rows.map((r) => [r.query, r.doc])).entries()];
const qrels = write(
  "qrels.txt",
  `${judged.map(([query, doc]) => `${query} 0 article-${doc} 1`).join("\n")}\n`,
);
const docMap = write(
  "queries.csv",
  `query_id,doc_id\n${judged.map(([query, doc]) => `${query},${doc}`).join("\n")}\n`,
);

describe("COVID-QA ranks as TREC runs, scored by ragci", () => {
  it("each query's success_5 and recip_rank are the file's hit5 and rr, exactly", async () => {
    const judgements = await readQrels(qrels, "qrels.txt");
    const map = new Map(judged);
    for (const [system, path] of [
      ["bm25", bm25],
      ["tfidf", tfidf],
    ] as const) {
      const read = trecRunFormat.toRows(await readEvalContent(path, path), {
        file: path,
        docPath: null,
        docMap: map,
        qrels: judgements,
      });
      const expected = rows.filter((r) => r.system === system);
      expect(read.rows.length).toBe(expected.length);
      const byQuery = new Map(read.rows.map((r) => [r.query, r]));
      for (const r of expected) {
        const got = byQuery.get(r.query);
        expect(got?.system).toBe(system);
        expect(got?.doc).toBe(r.doc);
        expect(got?.metrics.success_5).toBe(r.hit5);
        expect(got?.metrics.recip_rank).toBe(r.rr);
      }
    }
  });

  it("compare run.bm25 run.tfidf --qrels --doc-map gives the report of the bundled table", () => {
    const fromRuns = ragciJson([
      "compare",
      bm25,
      tfidf,
      "--qrels",
      qrels,
      "--doc-map",
      docMap,
      "--metric",
      "hit@5,mrr",
    ]);
    const fromTable = ragciJson(["compare", EXAMPLE, "--system", "system", "--metric", "hit5,rr"]);
    expect((fromRuns.inputs as { format: string }[]).map((i) => i.format)).toEqual([
      "trec_run",
      "trec_run",
    ]);
    expect(String(fromRuns.notes)).toContain("TREC run bm25: 1380 queries scored against");
    // The metrics as asked or as trec_eval names them (success_5, recip_rank); the inputs and
    // how they were read differ; the rest (differences, intervals, verdicts) agrees exactly.
    const strip = (r: Record<string, unknown>) =>
      JSON.parse(
        JSON.stringify({ ...r, inputs: null, notes: null })
          .replace(/"(hit@5|hit5|success_5)"/g, '"HIT5"')
          .replace(/"(mrr|rr|recip_rank)"/g, '"RR"'),
      );
    expect(strip(fromRuns).comparisons.map((c: { metric: string }) => c.metric)).toEqual([
      "HIT5",
      "RR",
    ]);
    expect(strip(fromRuns)).toEqual(strip(fromTable));
  });

  it("analyze --metric hit@3 (not among trec_eval's default cut-offs) equals the table's rank ≤ 3", () => {
    const table = write(
      "hit3.csv",
      `doc_id,query_id,hit3\n${rows
        .filter((r) => r.system === "bm25")
        .map((r) => `${r.doc},${r.query},${r.rank !== null && r.rank <= 3 ? 1 : 0}`)
        .join("\n")}\n`,
    );
    const fromRun = ragciJson([
      "analyze",
      bm25,
      "--qrels",
      qrels,
      "--doc-map",
      docMap,
      "--metric",
      "hit@3",
    ]);
    const fromTable = ragciJson(["analyze", table, "--metric", "hit3"]);
    const estimates = (r: Record<string, any>) =>
      JSON.stringify(r.analyses).match(/"estimate":[-0-9.e]+/g);
    expect(estimates(fromRun)?.length).toBeGreaterThan(1);
    expect(estimates(fromRun)).toEqual(estimates(fromTable));
  });

  it("--qrels with trec_eval's output (not a run) is refused rather than ignored", () => {
    const allTrec = join(ROOT, "test/fixtures/realTools/trec_eval/all_trec.txt");
    const map = join(ROOT, "test/fixtures/realTools/trec_eval/doc-map.csv");
    const result = ragci([
      "analyze",
      allTrec,
      "--qrels",
      qrels,
      "--doc-map",
      map,
      "--metric",
      "mrr",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--qrels scores TREC run files, and this is trec_eval output; leave --qrels out",
    );
  });

  it("two runs with one tag stay two systems, named with their files; one run given twice is refused", () => {
    const sameTag = write("other.run", readFileSync(tfidf, "utf8").replace(/ tfidf$/gm, " bm25"));
    const report = ragciJson([
      "compare",
      bm25,
      sameTag,
      "--qrels",
      qrels,
      "--doc-map",
      docMap,
      "--metric",
      "mrr",
    ]);
    const text = JSON.stringify(report);
    expect(text).toContain("bm25 · run.bm25");
    expect(text).toContain("bm25 · other.run");
    const copy = write("copy.run", readFileSync(bm25, "utf8"));
    const twice = ragci([
      "compare",
      bm25,
      copy,
      "--qrels",
      qrels,
      "--doc-map",
      docMap,
      "--metric",
      "mrr",
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("holds the same trec_run run as");
  });

  it("a run without --qrels says to give it", () => {
    const result = ragci(["analyze", bm25, "--doc-map", docMap, "--metric", "mrr"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("give --qrels FILE");
  });
});
