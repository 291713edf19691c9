import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaliteFormat } from "../../../src/ingest/evalFormats/evalite.js";
import type { EvalContent, EvalRow } from "../../../src/ingest/evalFormats/evalRows.js";
import { readEvalContent, requireFormat } from "../../../src/ingest/evalFormats/readEvalContent.js";

const scratch = mkdtempSync(join(tmpdir(), "ragci-evalite-"));

/** sql.js (SQLite in WebAssembly), used here for SQL written independently of the reader. */
interface SqlDb {
  exec(sql: string): { columns: string[]; values: unknown[][] }[];
  run(sql: string): void;
  export(): Uint8Array;
  close(): void;
}
const SQL = await (
  createRequire(import.meta.url)("sql.js") as () => Promise<{
    Database: new (bytes?: Uint8Array) => SqlDb;
  }>
)();
const objects = (db: SqlDb, sql: string) => {
  const [r] = db.exec(sql);
  return r ? r.values.map((v) => Object.fromEntries(r.columns.map((c, i) => [c, v[i]]))) : [];
};

const dir = join(import.meta.dirname, "../../fixtures/evalFormats");
const load = (name: string) => readEvalContent(join(dir, name), name);

// A real run (test/fixtures/realTools/evalite/README.md): the same 3 questions asked of 10
// articles, trialCount 2, the article in expected; the store holds that run and an earlier one.
const real = join(import.meta.dirname, "../../fixtures/realTools/evalite");
const realOptions = (file: string) => ({ file, docPath: ["expected", "article"] });

/** Each article's per-item means of one scorer, sorted: the recomputation the reader must match. */
type ByDoc = Record<string, Record<string, number[]>>;

function byDoc(items: { doc: string; scorer: string; mean: number }[]): ByDoc {
  const out: ByDoc = {};
  for (const { doc, scorer, mean } of items) {
    const scorers = out[doc] ?? {};
    scorers[scorer] = [...(scorers[scorer] ?? []), mean].sort((a, b) => a - b);
    out[doc] = scorers;
  }
  return out;
}

function readerByDoc(rows: readonly EvalRow[]): ByDoc {
  return byDoc(
    rows.flatMap((r) =>
      Object.entries(r.metrics).map(([scorer, v]) => ({
        doc: String(r.doc),
        scorer,
        mean: Number(v),
      })),
    ),
  );
}

/** From the export's JSON: an item is an (article, question) pair, its trials' scores averaged. */
function recomputedFromJson(): { items: number; byDoc: ByDoc } {
  const raw = JSON.parse(readFileSync(join(real, "evalite-output.json"), "utf8"));
  const trials = new Map<string, { doc: string; scorer: string; values: number[] }>();
  for (const r of raw.evals[0].results)
    for (const s of r.scores) {
      const key = JSON.stringify([r.expected.article, r.input.question, s.name]);
      const seen = trials.get(key) ?? {
        doc: r.expected.article,
        scorer: s.name,
        values: [] as number[],
      };
      seen.values.push(s.score);
      trials.set(key, seen);
    }
  const means = [...trials.values()].map((t) => ({
    ...t,
    mean: t.values.reduce((a, b) => a + b, 0) / t.values.length,
  }));
  return { items: means.length / 2, byDoc: byDoc(means) };
}

/** From the SQLite file, by SQL: the latest eval's results, an item per (article, question). */
function recomputedFromStore(latest: boolean): ByDoc {
  const bytes = readFileSync(join(real, "cache.sqlite"));
  // A WAL-mode file read from memory must be marked as a rollback-journal one (bytes 18–19).
  bytes[18] = 1;
  bytes[19] = 1;
  const db = new SQL.Database(bytes);
  const rows = objects(
    db,
    `SELECT json_extract(r.expected, '$.article') AS doc, json_extract(r.input, '$.question') AS q,
            s.name AS scorer, avg(s.score) AS mean
     FROM results r JOIN scores s ON s.result_id = r.id
     WHERE r.eval_id = (SELECT ${latest ? "max" : "min"}(id) FROM evals WHERE name = 'Article QA')
     GROUP BY doc, q, scorer`,
  ) as { doc: string; scorer: string; mean: number }[];
  db.close();
  return byDoc(rows);
}

describe("evalite reader, on a real run", () => {
  it("the export: 30 items in 10 articles (one question in ten articles is ten items), 2 trials averaged", async () => {
    const read = evaliteFormat.toRows(
      await readEvalContent(join(real, "evalite-output.json"), "evalite-output.json"),
      realOptions("evalite-output.json"),
    );
    const truth = recomputedFromJson();
    expect(read.rows).toHaveLength(truth.items);
    expect(truth.items).toBe(30);
    expect(new Set(read.rows.map((r) => r.doc)).size).toBe(10);
    expect(readerByDoc(read.rows)).toEqual(truth.byDoc);
    expect(read.notes.join(" ")).toContain("trialCount Article QA: 2");
  });

  it("the SQLite store: the same items as the export, from the latest of its two runs", async () => {
    const store = await readEvalContent(join(real, "cache.sqlite"), "cache.sqlite");
    expect(store.kind).toBe("sqlite");
    expect(evaliteFormat.detect(store)).toBe(true);
    const read = evaliteFormat.toRows(store, realOptions("cache.sqlite"));
    const exported = evaliteFormat.toRows(
      await readEvalContent(join(real, "evalite-output.json"), "evalite-output.json"),
      realOptions("evalite-output.json"),
    );
    const strip = (rows: readonly EvalRow[]) => rows.map(({ system: _, ...r }) => r);
    expect(strip(read.rows)).toEqual(strip(exported.rows));
    expect(readerByDoc(read.rows)).toEqual(recomputedFromStore(true));
    // The earlier run differs, so reading it instead would be seen.
    expect(recomputedFromStore(false)).not.toEqual(recomputedFromStore(true));
    expect(read.notes).toContain(
      "evalite store: 1 of 1 evals ran more than once (Article QA: runs 1, 2); each eval's latest run is read (Article QA: run 2), the earlier ones are left out",
    );
    expect(read.rows[0]?.system).toBe("Article QA (cache)");
  });

  it("a SQLite file without evalite's tables is refused in one line", async () => {
    const db = new SQL.Database();
    db.run("CREATE TABLE t (x INTEGER)");
    const other = db.export();
    db.close();
    const path = join(scratch, "other.db");
    writeFileSync(path, other);
    const content = await readEvalContent(path, "other.db");
    expect(evaliteFormat.detect(content)).toBe(false);
    expect(() => requireFormat(evaliteFormat, content, "other.db")).toThrow(
      "other.db: a SQLite file without evalite's tables (runs, evals, results, scores); ragci reads a SQLite file only as evalite's store",
    );
  });
});

describe("evalite reader", () => {
  it("detects an --outputPath export and not the other tools' files", async () => {
    expect(evaliteFormat.detect(await load("evalite-output.json"))).toBe(true);
    for (const other of ["deepeval-test-run.json", "braintrust-experiment.jsonl"])
      expect(evaliteFormat.detect(await load(other))).toBe(false);
  });

  it("hand-written export (imitation): equal neighbours without a common run length stay items", async () => {
    const content = await load("evalite-output.json");
    const read = evaliteFormat.toRows(content, {
      file: "out/before.json",
      docPath: ["input", "article"],
    });
    // Two results of one data point then one of another: 2 and 1 have no common length
    // above 1, so these are not trials (evalite would have written two of each).
    expect(read.rows).toEqual([
      {
        query: "0",
        doc: "tides.md",
        system: "RAG QA [small] (before)",
        metrics: { Levenshtein: 1, Faithful: 0.5 },
      },
      {
        query: "1",
        doc: "tides.md",
        system: "RAG QA [small] (before)",
        metrics: { Levenshtein: 0.5, Faithful: 0.5 },
      },
      {
        query: "2",
        doc: "sky.md",
        system: "RAG QA [small] (before)",
        metrics: { Levenshtein: 1, Faithful: null },
      },
    ]);
    expect(read.notes.join(" ")).not.toMatch(/trial/);
  });

  // Hand-written exports (imitations): evalite's trials are runs of one data point in colOrder.
  const exportOf = (points: [string, string, number][]): EvalContent => ({
    kind: "json",
    value: {
      run: { id: 1, runType: "full" },
      evals: [
        {
          id: 1,
          name: "E",
          results: points.map(([question, article, score], colOrder) => ({
            id: colOrder + 1,
            input: { question },
            expected: { article },
            colOrder,
            scores: [{ id: colOrder + 1, name: "s", score }],
          })),
        },
      ],
    },
  });
  const options = { file: "e.json", docPath: ["expected", "article"] };

  it("hand-written export (imitation): runs of one length are trials, averaged per item, not merged by input", () => {
    const read = evaliteFormat.toRows(
      exportOf([
        ["q", "a", 1],
        ["q", "a", 0],
        ["q", "b", 1],
        ["q", "b", 1],
      ]),
      options,
    );
    expect(read.rows).toEqual([
      { query: "0", doc: "a", system: "E (e)", metrics: { s: 0.5 } },
      { query: "1", doc: "b", system: "E (e)", metrics: { s: 1 } },
    ]);
    expect(read.notes).toContain(
      "evalite: items ran several times (trialCount E: 2, read from the runs of equal data points, as the export has no trial index); each item's scores are averaged over its trials",
    );
  });

  it("hand-written export (imitation): repeats without a common run length stay items, with a note", () => {
    const read = evaliteFormat.toRows(
      exportOf([
        ["q", "a", 1],
        ["q", "a", 0],
        ["q", "b", 1],
      ]),
      options,
    );
    expect(read.rows.map((r) => [r.query, r.doc, r.metrics.s])).toEqual([
      ["0", "a", 1],
      ["1", "a", 0],
      ["2", "b", 1],
    ]);
    expect(read.notes).toContain(
      "evalite: some results repeat the data point before them, but not in runs of one length as trials would (E: 1); each is read as an item of its own",
    );
  });

  it("hand-written export (imitation): evals of one name in two files stay two systems", () => {
    const { value } = exportOf([["q", "a", 1]]) as {
      value: { run: unknown; evals: Record<string, unknown>[] };
    };
    const evals = ["/x/a.eval.ts", "/x/b.eval.ts"].map((filepath, i) => ({
      ...value.evals[0],
      id: i + 1,
      filepath,
    }));
    const read = evaliteFormat.toRows({ kind: "json", value: { run: value.run, evals } }, options);
    expect(read.rows.map((r) => r.system)).toEqual([
      "E [/x/a.eval.ts] (e)",
      "E [/x/b.eval.ts] (e)",
    ]);
  });

  it("asks for --doc and refuses other shapes in one line", async () => {
    const content = await load("evalite-output.json");
    expect(() => evaliteFormat.toRows(content, { file: "o.json", docPath: null })).toThrow(
      "o.json: name the document field with `doc` (e.g. `doc` input.article); fields seen in the first item: input.question, input.article, expected",
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
