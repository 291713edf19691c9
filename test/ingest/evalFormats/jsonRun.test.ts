import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RagciError } from "../../../src/core/errors.js";
import { evalResultsFile } from "../../../src/ingest/evalFormats/evalResultsFile.js";
import type { EvalFormat, EvalRows } from "../../../src/ingest/evalFormats/evalRows.js";
import {
  namedEvalFormat,
  readEvalContent,
  sniffEvalFormat,
} from "../../../src/ingest/evalFormats/readEvalContent.js";
import { trecRunFormat } from "../../../src/ingest/evalFormats/trecRun.js";
import { byteOrder } from "../../../src/ingest/trecRun/byteOrder.js";
import { type Qrels, readQrels } from "../../../src/ingest/trecRun/readQrels.js";
import { scratchDir } from "../../cli/runCli.js";

// The generated TREC runs of the trec_eval oracle (cases/README.md), rewritten here as each JSON
// shape ragci reads (src/ingest/trecRun/jsonRun.ts): every query's measures must equal the TREC
// path's, and so trec_eval's own %.17g values.
const cases = join(import.meta.dirname, "../../fixtures/realTools/trec_eval/cases");
const dir = scratchDir();

interface Line {
  readonly query: string;
  readonly docno: string;
  readonly score: number;
}

/** A TREC run's lines, read here independently of ragci's reader. */
function trecLines(run: string): Line[] {
  return readFileSync(join(cases, run), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const [query, , docno, , score] = l.split(/\s+/) as string[];
      return { query: query as string, docno: docno as string, score: Number(score) };
    });
}

function byQuery(lines: readonly Line[]): Map<string, Line[]> {
  const out = new Map<string, Line[]>();
  for (const l of lines) out.set(l.query, [...(out.get(l.query) ?? []), l]);
  return out;
}

/** Each query's documents in trec_eval's order: score descending, then docno descending (bytes). */
function trecOrder(lines: readonly Line[]): Line[] {
  return [...lines].sort((a, b) =>
    a.score !== b.score ? b.score - a.score : byteOrder(b.docno, a.docno),
  );
}

/** The run written as each shape, by file name (.json or .jsonl). */
function shapes(run: string): Record<string, string> {
  const queries = byQuery(trecLines(run));
  const records = [...queries].map(([q, ls]) => ({
    qid: q,
    doc_ids: ls.map((l) => l.docno),
    scores: ls.map((l) => l.score),
  }));
  const jsonl = (values: readonly unknown[]) =>
    `${values.map((v) => JSON.stringify(v)).join("\n")}\n`;
  return {
    // ranx's Run.save(kind="json") and pytrec_eval's run dict.
    "scores-by-query.json": JSON.stringify(
      Object.fromEntries(
        [...queries].map(([q, ls]) => [q, Object.fromEntries(ls.map((l) => [l.docno, l.score]))]),
      ),
      null,
      1,
    ),
    // ranx's Run.add(q_id, doc_ids, scores), one query per line.
    "list-with-scores.jsonl": jsonl(
      [...queries].map(([q, ls]) => ({
        q_id: q,
        doc_ids: ls.map((l) => l.docno),
        scores: ls.map((l) => l.score),
      })),
    ),
    // The same records as one JSON array.
    "records.json": JSON.stringify(records),
    // Only the ranked list (trec_eval's order), no scores.
    "ranked-lists.jsonl": jsonl(
      [...queries].map(([q, ls]) => ({ query_id: q, docs: trecOrder(ls).map((l) => l.docno) })),
    ),
    // ir_datasets' GenericScoredDoc: one line per retrieved document.
    "scored-docs.jsonl": jsonl(
      trecLines(run).map((l) => ({ query_id: l.query, doc_id: l.docno, score: l.score })),
    ),
  };
}

async function ownDocuments(qrels: Qrels): Promise<Map<string, string>> {
  return new Map([...qrels.queries.keys()].map((q) => [q, `doc-of-${q}`]));
}

async function scoreFile(
  path: string,
  file: string,
  qrelsFile: string,
  complete = false,
  format?: EvalFormat,
): Promise<EvalRows & { format: string }> {
  const found = format ?? (await sniffEvalFormat(path));
  if (!found) throw new Error(`${file}: not detected`);
  const qrels = await readQrels(join(cases, qrelsFile), qrelsFile);
  const read = found.toRows(await readEvalContent(path, file), {
    file,
    docPath: null,
    docMap: await ownDocuments(qrels),
    qrels,
    completeQueries: complete,
    metrics: ["hit@3", "ndcg@7"],
  });
  return { ...read, format: found.name };
}

function values(rows: EvalRows): Map<string, number> {
  return new Map(
    rows.rows.flatMap((r) =>
      Object.entries(r.metrics).map(([m, v]) => [`${r.query} ${m}`, v as number]),
    ),
  );
}

function printed(file: string): Map<string, number> {
  return new Map(
    readFileSync(join(cases, file), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.split("\t").map((f) => f.trim()) as [string, string, string])
      .filter(([, q]) => q !== "all")
      .map(([m, q, v]) => [`${q} ${m}`, Number(v)]),
  );
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("runs as JSON and JSON lines, scored exactly as the same run in TREC format", () => {
  const oracles = [
    { run: "run-a.txt", qrels: "qrels.txt", full: "full-a.txt", complete: false },
    { run: "run-b.txt", qrels: "qrels.txt", full: "full-b.txt", complete: false },
    { run: "run-a.txt", qrels: "qrels-unretrieved.txt", full: "full-c-a.txt", complete: true },
  ];
  const detected: Record<string, string> = {
    "scores-by-query.json": "run_json",
    "list-with-scores.jsonl": "run_jsonl",
    "records.json": "run_json",
    "ranked-lists.jsonl": "run_jsonl",
    "scored-docs.jsonl": "run_jsonl",
  };
  for (const o of oracles)
    for (const [shape, text] of Object.entries(shapes(o.run)))
      it(`${o.run} as ${shape} with ${o.qrels}${o.complete ? " (-c)" : ""}: detected, and every query's measures equal the TREC reader's and trec_eval's`, async () => {
        const path = write(`${o.run}-${o.qrels}-${shape}`, text);
        const json = await scoreFile(path, shape, o.qrels, o.complete);
        expect(json.format).toBe(detected[shape]);
        const trec = await scoreFile(join(cases, o.run), o.run, o.qrels, o.complete, trecRunFormat);
        const mine = values(json);
        expect(mine).toEqual(values(trec));
        // And trec_eval's own values, for every (query, measure) it printed.
        const theirs = printed(o.full);
        const differing = [...theirs].filter(([k, v]) => !Object.is(mine.get(k), v));
        expect(differing).toEqual([]);
        expect(new Set(json.rows.map((r) => r.query)).size).toBe(o.complete ? 64 : 61);
        // The same queries left out or scored empty, said the same way.
        const tag = o.run === "run-a.txt" ? "alpha" : "beta";
        const name = shape.replace(/\.jsonl?$/, "");
        expect(json.notes.slice(0, -1)).toEqual(
          trec.notes.map((n) => n.replace(`TREC run ${tag}:`, `JSON run ${name}:`)),
        );
        expect(new Set(json.rows.map((r) => r.system))).toEqual(new Set([name]));
      });
});

describe("how a JSON run's documents are ranked", () => {
  const qrels: Qrels = { file: "q.txt", queries: new Map([["1", new Map([["a", 1]])]]) };
  const read = (text: string, file = "r.jsonl") =>
    (namedEvalFormat("run-jsonl") as EvalFormat).toRows(
      {
        kind: "jsonl",
        values: text
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as unknown),
      },
      { file, docPath: null, docMap: new Map([["1", "d"]]), qrels },
    );

  it("a list without scores is its own ranking; with tied scores, trec_eval's docno descending", () => {
    // "a" (relevant) first in the list: rank 1.
    const listed = read('{"qid": "1", "docs": ["a", "b"]}');
    expect(listed.rows[0]?.metrics.recip_rank).toBe(1);
    expect(listed.notes.at(-1)).toContain(
      "ranked in the order of its list (the file gives no scores)",
    );
    // The same list with equal scores: trec_eval puts "b" before "a" (docno descending).
    const tied = read('{"qid": "1", "docs": ["a", "b"], "scores": [1, 1]}');
    expect(tied.rows[0]?.metrics.recip_rank).toBe(0.5);
    expect(tied.notes.at(-1)).toContain("ranked by score as trec_eval ranks them");
    // Scores, not the list's order, rank when given.
    const scored = read('{"qid": "1", "docs": ["b", "a"], "scores": [0.1, 0.9]}');
    expect(scored.rows[0]?.metrics.recip_rank).toBe(1);
  });

  it("numeric ids are read as JSON writes them", () => {
    const numeric: Qrels = { file: "q.txt", queries: new Map([["7", new Map([["12", 1]])]]) };
    const rows = (namedEvalFormat("run-jsonl") as EvalFormat).toRows(
      { kind: "jsonl", values: [{ query_id: 7, doc_id: 12, score: 3 }] },
      { file: "n.jsonl", docPath: null, docMap: new Map([["7", "d"]]), qrels: numeric },
    );
    expect(rows.rows.map((r) => [r.query, r.metrics.recip_rank])).toEqual([["7", 1]]);
  });

  function failure(run: () => unknown): string {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(RagciError);
      return (error as Error).message;
    }
    throw new Error("expected a RagciError");
  }

  it("refuses what JSON would merge or what does not say a ranking", async () => {
    expect(failure(() => read('{"qid": "1", "docs": ["a"]}\n{"qid": "1", "docs": ["b"]}'))).toBe(
      "r.jsonl: JSON line 2: query 1 again (first on JSON line 1); give one record per query",
    );
    expect(failure(() => read('{"qid": "1", "docs": ["a", "b"], "scores": [1]}'))).toBe(
      "r.jsonl: JSON line 1: scores is not a list of 2 numbers, one per entry of docs; give one score per document",
    );
    expect(
      failure(() =>
        read('{"qid": "1", "docs": ["a"], "scores": [1]}\n{"qid": "2", "docs": ["a"]}'),
      ),
    ).toBe(
      "r.jsonl: JSON line 2: has no scores and the first record has; give scores for every query or for none",
    );
    expect(failure(() => read('{"qid": "1", "docs": ["a", "a"]}'))).toBe(
      "r.jsonl: document a is retrieved twice for query 1; trec_eval refuses such a run (duplicate docs), keep one line per query and document",
    );
    // A document twice in one query's object: JSON.parse keeps the last, so the text is checked.
    const twice = write("twice.json", '{"1": {"a": 1, "b": 2, "a": 3}}');
    const content = await readEvalContent(twice, "twice.json");
    const format = namedEvalFormat("run-json") as EvalFormat;
    expect(format.detect(content)).toBe(true);
    expect(
      failure(() =>
        format.toRows(content, { file: "twice.json", docPath: null, docMap: new Map(), qrels }),
      ),
    ).toBe(
      "twice.json: document a: is a key twice in one query's scores; JSON keeps only the last, and trec_eval refuses a document retrieved twice (duplicate docs), keep one",
    );
    const queryTwice = write("qtwice.json", '{"1": {"a": 1}, "2": {"a": 1}, "1": {"b": 1}}');
    const queryTwiceContent = await readEvalContent(queryTwice, "qtwice.json");
    expect(
      failure(() =>
        format.toRows(queryTwiceContent, {
          file: "qtwice.json",
          docPath: null,
          docMap: new Map(),
          qrels,
        }),
      ),
    ).toBe("qtwice.json: query 1: is a key twice; JSON keeps only the last, give each query once");
    // The same names in two queries are not duplicates.
    const fine = write("fine.json", '{"1": {"a": 1, "b": 2}, "2": {"a": 1, "b": 2}}');
    expect(
      format.toRows(await readEvalContent(fine, "fine.json"), {
        file: "fine.json",
        docPath: null,
        docMap: new Map([["1", "d"]]),
        qrels,
      }).rows.length,
    ).toBe(1);
  });

  it("a per-query results table is not taken for a run; --format names the run readers", async () => {
    const table = write(
      "results.jsonl",
      '{"query_id": "1", "doc_ids": ["a"], "hit5": 1}\n{"query_id": "2", "doc_ids": ["b"], "hit5": 0}\n',
    );
    expect(await sniffEvalFormat(table)).toBeNull();
    expect(namedEvalFormat("run-json")?.name).toBe("run_json");
    expect(namedEvalFormat("run-jsonl")?.name).toBe("run_jsonl");
    // A one-line JSON lines run is still a JSON lines run.
    const one = write("one.jsonl", '{"qid": "1", "docs": ["a"]}\n');
    expect((await sniffEvalFormat(one))?.name).toBe("run_jsonl");
  });

  it("evalResultsFile scores a JSON run with --qrels, and refuses one without", async () => {
    const qrelsPath = join(cases, "qrels.txt");
    const path = write("b.jsonl", shapes("run-b.txt")["list-with-scores.jsonl"] as string);
    const docMap = await ownDocuments(await readQrels(qrelsPath, "qrels.txt"));
    const out = await evalResultsFile([{ path, file: "b.jsonl" }], {
      format: null,
      doc: null,
      metrics: ["ndcg@10"],
      docMap,
      qrels: qrelsPath,
    });
    try {
      expect(out.tools).toEqual(["run_jsonl"]);
      const full = printed("full-b.txt");
      const lines = readFileSync(out.path, "utf8").trim().split("\n");
      expect(lines.length).toBe(61);
      for (const l of lines) {
        const r = JSON.parse(l) as { query_id: string; system: string; ndcg_cut_10: number };
        expect(r.system).toBe("b");
        expect(r.ndcg_cut_10).toBe(full.get(`${r.query_id} ndcg_cut_10`));
      }
    } finally {
      await out.cleanup();
    }
    await expect(
      evalResultsFile([{ path, file: "b.jsonl" }], {
        format: null,
        doc: null,
        metrics: ["ndcg@10"],
        docMap,
      }),
    ).rejects.toThrow(
      "b.jsonl: a JSON run is scored against relevance judgements; give `qrels` FILE (TREC qrels: query iteration document grade)",
    );
  });
});
