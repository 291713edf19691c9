import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RagciError } from "../../../src/core/errors.js";
import { withDuckDb } from "../../../src/ingest/duckdb.js";
import { evalResultsFile } from "../../../src/ingest/evalFormats/evalResultsFile.js";
import type { EvalContent, EvalRows } from "../../../src/ingest/evalFormats/evalRows.js";
import {
  EVAL_FORMATS,
  namedEvalFormat,
  readEvalContent,
  requireFormat,
  sniffEvalFormat,
} from "../../../src/ingest/evalFormats/readEvalContent.js";
import { trecRunFormat } from "../../../src/ingest/evalFormats/trecRun.js";
import { resolveColumn } from "../../../src/ingest/resolveColumns.js";
import { readQrels } from "../../../src/ingest/trecRun/readQrels.js";
import {
  runMemoryLimit,
  scoreRunOutOfCore,
} from "../../../src/ingest/trecRun/scoreRunOutOfCore.js";

// Runs and qrels made by make_cases.mjs, and what trec_eval 10.0 printed for them (README.md in
// each folder has the commands): `all_trec-*.txt` as trec_eval prints (%6.4f), `full-*.txt`
// from the same source with only the print format widened to %.17g.
const cases = join(import.meta.dirname, "../../fixtures/realTools/trec_eval/cases");
const earlier = join(import.meta.dirname, "../../fixtures/realTools/trec_eval");

interface Printed {
  readonly measure: string;
  readonly query: string;
  readonly value: string;
}

function printed(file: string): Printed[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [measure, query, value] = l.split("\t").map((f) => f.trim()) as [
        string,
        string,
        string,
      ];
      return { measure, query, value };
    })
    .filter((p) => p.query !== "all");
}

/** Every query of the qrels under a document of its own: the oracle tests need no grouping. */
async function ownDocuments(qrelsFile: string): Promise<Map<string, string>> {
  const qrels = await readQrels(qrelsFile, qrelsFile);
  return new Map([...qrels.queries.keys()].map((q) => [q, `doc-of-${q}`]));
}

async function score(
  dir: string,
  run: string,
  qrels: string,
  options: { complete?: boolean; docMap?: Map<string, string>; metrics?: string[] } = {},
): Promise<EvalRows> {
  const format = await sniffEvalFormat(join(dir, run));
  expect(format?.name, run).toBe("trec_run");
  return trecRunFormat.toRows(await readEvalContent(join(dir, run), run), {
    file: run,
    docPath: null,
    docMap: options.docMap ?? (await ownDocuments(join(dir, qrels))),
    qrels: await readQrels(join(dir, qrels), qrels),
    completeQueries: options.complete ?? false,
    metrics: options.metrics ?? null,
  });
}

/**
 * printf's %.4f of a double: its exact binary value rounded half to even at four decimals, as
 * glibc prints it (JavaScript's toFixed rounds an exact half up).
 */
function printf4(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let e = -1074;
  if (exponent > 0) {
    mantissa |= 1n << 52n;
    e = exponent - 1075;
  }
  let num = mantissa * 10000n;
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  let q = num / den;
  const r = num - q * den;
  if (2n * r > den || (2n * r === den && q % 2n === 1n)) q++;
  const digits = q.toString().padStart(5, "0");
  return `${x < 0 ? "-" : ""}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/** ragci's value of each (query, measure), by "query measure". */
function values(rows: EvalRows): Map<string, number> {
  return new Map(
    rows.rows.flatMap((r) =>
      Object.entries(r.metrics).map(([m, v]) => [`${r.query} ${m}`, v as number]),
    ),
  );
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RagciError);
    return (error as Error).message;
  }
  throw new Error("expected a RagciError");
}

describe("TREC runs scored by ragci against trec_eval 10.0 itself", () => {
  const oracles = [
    { run: "run-a.txt", qrels: "qrels.txt", full: "full-a.txt", all: "all_trec-a.txt" },
    { run: "run-b.txt", qrels: "qrels.txt", full: "full-b.txt", all: "all_trec-b.txt" },
    {
      run: "run-a.txt",
      qrels: "qrels-unretrieved.txt",
      full: "full-c-a.txt",
      all: "all_trec-c-a.txt",
      complete: true,
    },
  ];

  for (const o of oracles) {
    it(`${o.run} with ${o.qrels}${o.complete ? " (-c)" : ""}: every measure of every query equals trec_eval's %.17g value`, async () => {
      const mine = values(await score(cases, o.run, o.qrels, { complete: o.complete ?? false }));
      const theirs = printed(join(cases, o.full));
      // The same (query, measure) pairs on both sides: nothing computed that trec_eval did not
      // print, nothing printed that ragci did not compute.
      expect(new Set(theirs.map((p) => `${p.query} ${p.measure}`))).toEqual(new Set(mine.keys()));
      const differing = theirs.filter(
        (p) => !Object.is(mine.get(`${p.query} ${p.measure}`), Number(p.value)),
      );
      expect(differing).toEqual([]);
      // 61 queries (60 made up and the deep one; 64 with -c), 44 measures each.
      expect(new Set(theirs.map((p) => p.query)).size).toBe(o.complete ? 64 : 61);
    });

    it(`${o.run} with ${o.qrels}${o.complete ? " (-c)" : ""}: printed as trec_eval prints (%6.4f), every value of the unpatched binary's all_trec output`, async () => {
      const mine = values(await score(cases, o.run, o.qrels, { complete: o.complete ?? false }));
      const theirs = printed(join(cases, o.all)).filter((p) => mine.has(`${p.query} ${p.measure}`));
      const differing = theirs.filter(
        (p) => printf4(mine.get(`${p.query} ${p.measure}`) as number) !== p.value,
      );
      expect(differing).toEqual([]);
      // Each query's 48 measures are among what all_trec printed.
      expect(theirs.length).toBe(mine.size);
    });
  }

  it("cut-offs named in --metric (hit@3, ndcg@7, P@1, recall@50, map@3…) are computed as trec_eval -m success.3 … computes them", async () => {
    const asked = [
      "P@1",
      "p_3",
      "P@7",
      "recall@3",
      "recall@50",
      "hit@2",
      "success_3",
      "hits@20",
      "ndcg@1",
      "ndcg_cut_3",
      "ndcg@7",
      "map@3",
      "map_cut@50",
    ];
    const mine = values(await score(cases, "run-a.txt", "qrels.txt", { metrics: asked }));
    const theirs = printed(join(cases, "full-cutoffs-a.txt"));
    expect(new Set(theirs.map((p) => p.measure)).size).toBe(asked.length);
    expect(
      theirs.filter((p) => !Object.is(mine.get(`${p.query} ${p.measure}`), Number(p.value))),
    ).toEqual([]);
    const four = printed(join(cases, "cutoffs-a.txt"));
    expect(four.length).toBe(theirs.length);
    expect(
      four.filter((p) => printf4(mine.get(`${p.query} ${p.measure}`) as number) !== p.value),
    ).toEqual([]);
    // Not asked: only trec_eval's default cut-offs.
    const plain = values(await score(cases, "run-a.txt", "qrels.txt"));
    expect(plain.has("q000 success_3")).toBe(false);
    expect(plain.has("q000 success_5")).toBe(true);
  });

  it("the deep query: its relevant document at rank 1,374 is discounted by the correctly rounded log2 (Math.log2 would miss the last digits)", async () => {
    const mine = values(await score(cases, "run-a.txt", "qrels.txt"));
    const theirs = printed(join(cases, "full-a.txt")).find(
      (p) => p.query === "deep" && p.measure === "ndcg",
    );
    expect(mine.get("deep ndcg")).toBe(Number(theirs?.value));
    // Recomputed from the judgements: one grade-1 document at rank 1,374, ideal 2 then 1.
    const withMathLog2 = 1 / Math.log2(1375) / (2 / Math.log2(2) + 1 / Math.log2(3));
    expect(withMathLog2).not.toBe(mine.get("deep ndcg"));
    expect(Math.abs(withMathLog2 - (mine.get("deep ndcg") as number))).toBeLessThan(1e-15);
  });

  it("the earlier trec_eval fixtures (run.txt, run-rerank.txt, -c) agree at printed precision", async () => {
    const docMap = new Map(
      readFileSync(join(earlier, "doc-map.csv"), "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",") as [string, string]),
    );
    for (const [run, qrels, all, complete] of [
      ["run.txt", "qrels.txt", "all_trec.txt", false],
      ["run-rerank.txt", "qrels.txt", "all_trec-rerank.txt", false],
      ["run.txt", "qrels-unretrieved.txt", "all_trec-c.txt", true],
    ] as const) {
      const mine = values(await score(earlier, run, qrels, { complete, docMap }));
      const theirs = printed(join(earlier, all)).filter((p) => mine.has(`${p.query} ${p.measure}`));
      expect(theirs.length, run).toBe(mine.size);
      expect(
        theirs.filter((p) => printf4(mine.get(`${p.query} ${p.measure}`) as number) !== p.value),
      ).toEqual([]);
    }
  });
});

describe("which queries a TREC run is scored on", () => {
  it("without --complete-queries: only queries in both, with the counts in notes", async () => {
    const read = await score(cases, "run-a.txt", "qrels-unretrieved.txt");
    const queries = new Set(read.rows.map((r) => r.query));
    const judged = (await readQrels(join(cases, "qrels-unretrieved.txt"), "q")).queries;
    const runQueries = new Set(
      readFileSync(join(cases, "run-a.txt"), "utf8")
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("#"))
        .map((l) => l.split(" ")[0]),
    );
    const both = [...judged.keys()].filter((q) => runQueries.has(q));
    expect([...queries].sort()).toEqual([...both].sort());
    expect(read.notes).toContain(
      "TREC run alpha: 3 queries of qrels-unretrieved.txt not in the run left out, as trec_eval's help for -c says (trec_eval 10.0 itself stops on them; first: u1); `completeQueries` scores them as empty rankings, as trec_eval -c",
    );
    expect(read.notes).toContain(
      "TREC run alpha: 3 queries of the run not in qrels-unretrieved.txt left out, as trec_eval does (first: x1)",
    );
    // Queries in both whose judgements have no grade ≥ 1, recounted from the qrels.
    const without = both.filter((q) => ![...(judged.get(q)?.values() ?? [])].some((g) => g >= 1));
    expect(without.length).toBeGreaterThan(0);
    expect(read.notes).toContain(
      `TREC run alpha: ${without.length} scored queries have no relevant document in qrels-unretrieved.txt (first: ${[...without].sort()[0]}); they score 0 on every measure, as in trec_eval`,
    );
    // The queries in both are scored as trec_eval scores them with qrels.txt.
    const full = printed(join(cases, "full-a.txt"));
    const mine = values(read);
    expect(
      full.filter((p) => !Object.is(mine.get(`${p.query} ${p.measure}`), Number(p.value))),
    ).toEqual([]);
  });

  it("with --complete-queries: the qrels' queries the run lacks score 0, as trec_eval -c", async () => {
    const read = await score(cases, "run-a.txt", "qrels-unretrieved.txt", { complete: true });
    const u1 = read.rows.find((r) => r.query === "u1");
    expect(u1).toBeDefined();
    expect(Object.values(u1?.metrics ?? {}).every((v) => v === 0)).toBe(true);
    expect(read.notes.join("\n")).toContain(
      "3 queries of qrels-unretrieved.txt not in the run scored as empty rankings",
    );
  });

  it("every query gets the document --doc-map gives it, and the run's tag names the system", async () => {
    const docMap = new Map([
      ["q000", "paper-1"],
      ["q001", "paper-2"],
    ]);
    const read = await score(cases, "run-b.txt", "qrels.txt", { docMap });
    expect(read.rows.find((r) => r.query === "q001")?.doc).toBe("paper-2");
    expect(read.rows.find((r) => r.query === "q002")?.doc).toBeNull();
    expect(new Set(read.rows.map((r) => r.system))).toEqual(new Set(["beta"]));
  });
});

describe("TREC run and qrels refusals", () => {
  it("a document retrieved twice for a query is refused, as trec_eval refuses it (exit 4)", async () => {
    const message = await score(cases, "run-duplicate.txt", "qrels-duplicate.txt").then(
      () => "",
      (e: Error) => {
        expect(e).toBeInstanceOf(RagciError);
        return e.message;
      },
    );
    expect(message).toBe(
      "run-duplicate.txt: document a is retrieved twice for query t1; trec_eval refuses such a run (duplicate docs), keep one line per query and document",
    );
  });

  it("a run without --qrels or --doc-map is refused with the flag to give", async () => {
    const content = await readEvalContent(join(cases, "run-a.txt"), "run-a.txt");
    expect(
      failure(() =>
        trecRunFormat.toRows(content, { file: "run-a.txt", docPath: null, docMap: new Map() }),
      ),
    ).toBe(
      "run-a.txt: a TREC run is scored against relevance judgements; give `qrels` FILE (TREC qrels: query iteration document grade)",
    );
    const qrels = await readQrels(join(cases, "qrels.txt"), "qrels.txt");
    expect(
      failure(() => trecRunFormat.toRows(content, { file: "run-a.txt", docPath: null, qrels })),
    ).toBe(
      "run-a.txt: a TREC run has no source document; give `docMap` FILE (a CSV of query id and document id)",
    );
  });

  it("two tags in one file are refused: one run per file", () => {
    const text = "1 Q0 a 1 2 alpha\n1 Q0 b 2 1 beta\n";
    expect(
      failure(() =>
        trecRunFormat.toRows(
          { kind: "text", text },
          {
            file: "mixed.txt",
            docPath: null,
            docMap: new Map(),
            qrels: { file: "q", queries: new Map([["1", new Map([["a", 1]])]]) },
          },
        ),
      ),
    ).toBe(
      "mixed.txt line 2: run tag beta differs from alpha on the first line; give one run per file (split it by its sixth field)",
    );
  });
});

describe("a TREC run with one bad line is recognised and the line named (imitations: run.txt edited by hand)", () => {
  const run = readFileSync(join(earlier, "run.txt"), "utf8");
  const lines = run.split("\n");
  /** run.txt with line `n` (1-based) rewritten by `edit`. */
  const edited = (n: number, edit: (line: string) => string): string =>
    lines.map((l, i) => (i === n - 1 ? edit(l) : l)).join("\n");
  const badScore = (line: string) => line.replace(/^(\S+ \S+ \S+ \S+) \S+/, "$1 abc");
  const noTag = (line: string) => line.replace(/ \S+$/, "");
  const judged = async () => ({
    file: "run.txt",
    docPath: null,
    docMap: new Map<string, string>(),
    qrels: await readQrels(join(earlier, "qrels.txt"), "qrels.txt"),
  });
  const readAs = async (text: string, file: string, named: boolean) => {
    const content: EvalContent = { kind: "text", text };
    const options = { ...(await judged()), file };
    return failure(() => {
      if (named) requireFormat(trecRunFormat, content, file);
      else expect(EVAL_FORMATS.find((f) => f.detect(content))?.name).toBe("trec_run");
      trecRunFormat.toRows(content, options);
    });
  };

  it("a score that is not a number, on line 4 or line 300, with or without --format", async () => {
    expect(lines[3]).toMatch(/^\S+ Q0 \S+ 4 2\.5 /);
    for (const n of [4, 300])
      for (const named of [false, true])
        expect(await readAs(edited(n, badScore), "bad.txt", named)).toBe(
          `bad.txt line ${n}: score abc is not a number; the fifth field of a TREC run line is the score`,
        );
  });

  it("a line of 5 fields (no tag), on line 4 or line 300, and a run of 5 fields throughout", async () => {
    for (const n of [4, 300])
      for (const named of [false, true])
        expect(await readAs(edited(n, noTag), "five.txt", named)).toBe(
          `five.txt line ${n}: a TREC run line has 6 fields (query Q0 document rank score tag), this one 5; give the run unchanged`,
        );
    const untagged = lines.map((l) => (l === "" ? l : noTag(l))).join("\n");
    expect(await readAs(untagged, "five.txt", false)).toBe(
      "five.txt line 1: a TREC run line has 6 fields (query Q0 document rank score tag), this one 5; give the run unchanged",
    );
  });

  it("text that is mostly not run lines is not taken for a run; named a run, its first such line is given", async () => {
    const table: EvalContent = { kind: "text", text: "doc hit\na 1\nb 0\n" };
    expect(EVAL_FORMATS.find((f) => f.detect(table))).toBeUndefined();
    expect(failure(() => requireFormat(trecRunFormat, table, "t.txt"))).toBe(
      "t.txt line 1: a TREC run line has 6 fields (query Q0 document rank score tag), this one 2; check `format` (or leave it out to detect the tool)",
    );
    // A header line above run lines: the run is recognised and the header named.
    const headed = `query q0 doc rank score tag\n${lines.slice(0, 3).join("\n")}\n`;
    expect(await readAs(headed, "h.txt", false)).toBe(
      "h.txt line 1: score score is not a number; the fifth field of a TREC run line is the score",
    );
  });
});

describe("naming a TREC run's measures", () => {
  it("--format trec-run names the reader, and ragci's aliases reach trec_eval's names", () => {
    expect(namedEvalFormat("trec-run")?.name).toBe("trec_run");
    const names = [
      "recip_rank",
      "success_5",
      "ndcg_cut_10",
      "recall_10",
      "P_5",
      "map_cut_10",
      "map",
      "ndcg",
    ];
    expect(resolveColumn("mrr", names, "f", "metric")).toBe("recip_rank");
    expect(resolveColumn("hit@5", names, "f", "metric")).toBe("success_5");
    expect(resolveColumn("ndcg@10", names, "f", "metric")).toBe("ndcg_cut_10");
    expect(resolveColumn("recall@10", names, "f", "metric")).toBe("recall_10");
    expect(resolveColumn("P@5", names, "f", "metric")).toBe("P_5");
    expect(resolveColumn("map@10", names, "f", "metric")).toBe("map_cut_10");
  });
});

describe("a TREC run scored out of core (DuckDB sorts; too large to read whole)", () => {
  async function outOfCore(run: string, qrels: string, complete = false) {
    const judged = await readQrels(join(cases, qrels), qrels);
    return scoreRunOutOfCore(join(cases, run), {
      file: run,
      qrels: judged,
      docMap: await ownDocuments(join(cases, qrels)),
      completeQueries: complete,
      metrics: ["hit@3", "ndcg@7"],
    });
  }

  for (const [run, qrels, full, complete] of [
    ["run-a.txt", "qrels.txt", "full-a.txt", false],
    ["run-b.txt", "qrels.txt", "full-b.txt", false],
    ["run-a.txt", "qrels-unretrieved.txt", "full-c-a.txt", true],
  ] as const) {
    it(`${run} with ${qrels}${complete ? " (-c)" : ""}: every measure of every query equals trec_eval's %.17g value, and the notes are the in-memory reader's`, async () => {
      const read = await outOfCore(run, qrels, complete);
      const mine = values(read);
      const theirs = printed(join(cases, full));
      const differing = theirs.filter(
        (p) => !Object.is(mine.get(`${p.query} ${p.measure}`), Number(p.value)),
      );
      expect(differing).toEqual([]);
      expect(new Set(read.rows.map((r) => r.query))).toEqual(new Set(theirs.map((p) => p.query)));
      const inMemory = await score(cases, run, qrels, { complete, metrics: ["hit@3", "ndcg@7"] });
      expect(read.notes.slice(0, -1).sort()).toEqual([...inMemory.notes].sort());
      expect(read.notes.at(-1)).toContain("read out of core");
      expect(values(inMemory)).toEqual(mine);
    });
  }

  it("the cut-offs --metric names, as trec_eval -m success.3 …", async () => {
    const mine = values(await outOfCore("run-a.txt", "qrels.txt"));
    const theirs = printed(join(cases, "full-cutoffs-a.txt")).filter((p) =>
      ["success_3", "ndcg_cut_7"].includes(p.measure),
    );
    expect(theirs.length).toBeGreaterThan(100);
    expect(
      theirs.filter((p) => !Object.is(mine.get(`${p.query} ${p.measure}`), Number(p.value))),
    ).toEqual([]);
  });

  it("a document retrieved twice is refused with the in-memory reader's message", async () => {
    const judged = await readQrels(join(cases, "qrels-duplicate.txt"), "qrels-duplicate.txt");
    await expect(
      scoreRunOutOfCore(join(cases, "run-duplicate.txt"), {
        file: "run-duplicate.txt",
        qrels: judged,
        docMap: new Map(),
        completeQueries: false,
        metrics: null,
      }),
    ).rejects.toThrow(
      "run-duplicate.txt: document a is retrieved twice for query t1; trec_eval refuses such a run (duplicate docs), keep one line per query and document",
    );
  });
});

describe("a run scored out of core: DuckDB's memory cap and the progress of each pass", () => {
  it("DuckDB's budget is a quarter of the machine's memory by default; a given one is used, and a bad one refused", async () => {
    expect(runMemoryLimit(24 * 2 ** 30)).toBe("6144MiB");
    expect(runMemoryLimit(2 ** 30 + 5)).toBe("256MiB");
    const judged = await readQrels(join(cases, "qrels.txt"), "qrels.txt");
    const options = {
      file: "run-a.txt",
      qrels: judged,
      docMap: await ownDocuments(join(cases, "qrels.txt")),
      completeQueries: false,
      metrics: null,
    };
    // Under a small budget, the same values.
    const small = await scoreRunOutOfCore(join(cases, "run-a.txt"), {
      ...options,
      memoryLimit: "100MiB",
    });
    expect(values(small)).toEqual(
      values(await scoreRunOutOfCore(join(cases, "run-a.txt"), options)),
    );
    await expect(
      scoreRunOutOfCore(join(cases, "run-a.txt"), { ...options, memoryLimit: "lots" }),
    ).rejects.toThrow(
      /^run-a\.txt: DuckDB's memory limit lots is not a size \(.*\); give a size such as 4GiB$/,
    );
  });

  it("tells each pass's progress, from 0 to 1, while a run of 2·10⁶ lines is parsed, checked, sorted and scored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ragci-run-progress-"));
    try {
      const run = join(dir, "big.run");
      await withDuckDb((c) =>
        c.run(
          `COPY (SELECT 'q' || (x // 1000) AS q, 'Q0', 'd' || (x % 1000), x % 1000 + 1, (1000 - x % 1000) / 1000.0, 'sys' FROM range(2000000) t(x)) TO '${run}' (DELIMITER ' ', HEADER false, QUOTE '')`,
        ),
      );
      const qrels = {
        file: "q",
        queries: new Map([
          ["q0", new Map([["d3", 1]])],
          ["q1999", new Map([["d0", 2]])],
        ]),
      };
      const seen: [string, number][] = [];
      const read = await scoreRunOutOfCore(run, {
        file: "big.run",
        qrels,
        docMap: new Map([
          ["q0", "a"],
          ["q1999", "b"],
        ]),
        completeQueries: false,
        metrics: null,
        onProgress: (pass, fraction) => seen.push([pass, fraction]),
      });
      // Scored as the run says: d3 at rank 4 for q0, d0 at rank 1 for q1999.
      expect(read.rows.map((r) => [r.query, r.metrics.recip_rank])).toEqual([
        ["q0", 0.25],
        ["q1999", 1],
      ]);
      const passes = [...new Set(seen.map(([p]) => p))];
      // DuckDB's own estimate is polled every 250 ms: the long passes report, in order.
      expect(passes).toContain("parsing the run");
      expect(passes).toContain("scoring the run");
      const order = ["parsing the run", "checking the run", "sorting the run", "scoring the run"];
      expect(passes).toEqual(order.filter((p) => passes.includes(p)));
      expect(seen.every(([, f]) => f >= 0 && f <= 1)).toBe(true);
      const scoring = seen.filter(([p]) => p === "scoring the run").map(([, f]) => f);
      expect(scoring).toEqual([...scoring].sort((a, b) => a - b));
      expect(scoring.at(-1)).toBe(1);
      // Nobody listening: nothing is tracked, the same rows.
      const quiet = await scoreRunOutOfCore(run, {
        file: "big.run",
        qrels,
        docMap: new Map(),
        completeQueries: false,
        metrics: null,
      });
      expect(quiet.rows.map((r) => r.metrics.recip_rank)).toEqual([0.25, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  it("evalResultsFile passes each large run's progress on, named by its file", async () => {
    const qrelsPath = join(cases, "qrels.txt");
    const seen = new Set<string>();
    const out = await evalResultsFile([{ path: join(cases, "run-b.txt"), file: "run-b.txt" }], {
      format: null,
      doc: null,
      metrics: ["mrr"],
      docMap: await ownDocuments(qrelsPath),
      qrels: qrelsPath,
      largeRunBytes: 0,
      progress: (file, pass, fraction) => {
        seen.add(`${file} ${pass}`);
        expect(fraction).toBeGreaterThanOrEqual(0);
      },
    });
    await out.cleanup();
    expect(seen.has("run-b.txt scoring the run")).toBe(true);
  });
});

describe("evalResultsFile routes a large TREC run out of core", () => {
  it("from largeRunBytes on, both runs are scored out of core and give trec_eval's values", async () => {
    const qrelsPath = join(cases, "qrels.txt");
    const docMap = await ownDocuments(qrelsPath);
    const read = (largeRunBytes?: number) =>
      evalResultsFile(
        ["run-a.txt", "run-b.txt"].map((r) => ({ path: join(cases, r), file: r })),
        {
          format: null,
          doc: null,
          metrics: ["ndcg@10", "hit@3"],
          docMap,
          qrels: qrelsPath,
          ...(largeRunBytes === undefined ? {} : { largeRunBytes }),
        },
      );
    const large = await read(0);
    const small = await read();
    try {
      expect(large.tools).toEqual(["trec_run", "trec_run"]);
      expect(large.notes.filter((n) => n.includes("read out of core")).length).toBe(2);
      expect(small.notes.some((n) => n.includes("read out of core"))).toBe(false);
      const rowsOf = (path: string) =>
        readFileSync(path, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, string | number>);
      const byKey = (path: string) =>
        new Map(rowsOf(path).map((r) => [`${r.system} ${r.query_id}`, r]));
      const out = byKey(large.path);
      expect(out).toEqual(byKey(small.path));
      const full = printed(join(cases, "full-b.txt")).filter((p) => p.measure === "ndcg_cut_10");
      expect(full.length).toBe(61);
      for (const p of full) expect(out.get(`beta ${p.query}`)?.ndcg_cut_10).toBe(Number(p.value));
    } finally {
      await large.cleanup();
      await small.cleanup();
    }
  });
});
