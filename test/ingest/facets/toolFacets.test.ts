import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FacetCells } from "../../../src/core/facets/facetCells.js";
import { readSource } from "../../../src/index.js";
import { zipJsonMembers } from "../../../src/ingest/evalFormats/zipMembers.js";
import { scratchDir } from "../../cli/runCli.js";

const real = join(import.meta.dirname, "../../fixtures/realTools");

type Json = Record<string, any>;

/** The cells of one system × metric as a map from "document|query label" to [n, Σx, Σ(x − x̄)²]. */
function cellMap(cells: FacetCells): Map<string, [number, number, number]> {
  const out = new Map<string, [number, number, number]>();
  for (let i = 0; i < cells.n.length; i++) {
    const judge = cells.judge ? `|${cells.labels.judges?.[cells.judge[i] as number]}` : "";
    out.set(`${cells.labels.documents[cells.document[i] as number]}${judge}#${cells.query[i]}`, [
      cells.n[i] as number,
      cells.sum[i] as number,
      cells.withinSumOfSquares[i] as number,
    ]);
  }
  return out;
}

/** [n, Σx, Σ(x − x̄)²] of a list of trial values, recomputed here. */
function summary(values: readonly number[]): [number, number, number] {
  const sum = values.reduce((a, b) => a + b, 0);
  const mean = sum / values.length;
  return [values.length, sum, values.reduce((t, x) => t + (x - mean) ** 2, 0)];
}

/** Sorted [n, Σx, ss] triples, to compare cells without depending on query numbering. */
const triples = (cells: Iterable<[number, number, number]>) =>
  [...cells].map((c) => c.map((x) => Math.round(x * 1e12) / 1e12).join(",")).sort();

describe("tools' trials and judges kept as facets (real outputs)", () => {
  it("Inspect log_streaming.eval: 2 epochs kept as trials give cells of n = 2 and the same per-document means", async () => {
    const file = join(real, "inspect/log_streaming.eval");
    const members = zipJsonMembers(readFileSync(file), "log_streaming.eval");
    const samples = [...members.entries()]
      .filter(([n]) => n.startsWith("samples/"))
      .map(([, v]) => v as Json);
    const byId = new Map<string, number[]>();
    for (const s of samples)
      byId.set(String(s.id), [
        ...(byId.get(String(s.id)) ?? []),
        s.scores.match.value === "C" ? 1 : 0,
      ]);
    const [kept] = await readSource(
      { files: [file], doc: "id", trial: "epoch" },
      { metrics: ["match"] },
      { read: "tables" },
    );
    const [averaged] = await readSource(
      { files: [file], doc: "id" },
      { metrics: ["match"] },
      { read: "tables" },
    );
    const cells = kept?.cells?.[0]?.cells as FacetCells;
    expect([...cells.n]).toEqual([2, 2]);
    expect(triples(cellMap(cells).values())).toEqual(triples([...byId.values()].map(summary)));
    // Averaging epochs (Inspect's reduction) and keeping them as trials: the same documents.
    const a = averaged?.table.groups[0]?.stats;
    const k = kept?.table.groups[0]?.stats;
    expect(k?.ids).toEqual(a?.ids);
    expect(k?.n).toEqual(a?.n);
    expect(k?.s).toEqual(a?.s);
    expect(kept?.table.notices.join("\n")).toContain(
      "Inspect: each epoch is a trial (2 epochs), kept as cells and averaged per sample for the interval",
    );
    expect(kept?.description.rows).toBe(4);
  });

  it("Inspect, edited copy with a second scorer: scorers become judges of one metric, score", async () => {
    const name = "2025-05-12T20-28-13-04-00_popularity.json";
    const log = JSON.parse(readFileSync(join(real, "inspect", name), "utf8"));
    // Edited in memory: each sample gets a stricter copy of its scorer (C only when answer is "C").
    for (const s of log.samples)
      s.scores.strict = { ...s.scores.match, value: s.scores.match.value === "C" ? 0.5 : 0 };
    const file = join(scratchDir(), "two-scorers.json");
    writeFileSync(file, JSON.stringify(log));
    const [read] = await readSource(
      { files: [file], doc: "id", judge: "scorer" },
      { metrics: ["score"] },
      { read: "tables" },
    );
    const cells = read?.cells?.[0]?.cells as FacetCells;
    expect(cells.labels.judges).toEqual(["match", "strict"]);
    const want = log.samples.flatMap((s: Json) => {
      const m = s.scores.match.value === "C" ? 1 : 0;
      return [summary([m]), summary([m ? 0.5 : 0])];
    });
    expect(triples(cellMap(cells).values())).toEqual(triples(want));
    // The per-document mean path averages each sample over its two judges.
    const stats = read?.table.groups[0]?.stats;
    const total = log.samples.reduce(
      (t: number, s: Json) => t + (s.scores.match.value === "C" ? 0.75 : 0),
      0,
    );
    expect([...(stats?.s ?? [])].reduce((a, b) => a + b, 0)).toBeCloseTo(total, 12);
  });

  it("Inspect refuses a trial name it does not have, naming its own", async () => {
    const file = join(real, "inspect/log_streaming.eval");
    await expect(
      readSource(
        { files: [file], doc: "id", trial: "repeat" },
        { metrics: ["match"] },
        { read: "tables" },
      ),
    ).rejects.toThrow(
      'log_streaming.eval: Inspect output has no trial "repeat"; its trial is `trial` epoch',
    );
  });

  it("promptfoo --repeat 2: repeats kept as trials 1, 2 give cells of n = 2, the mean path unchanged", async () => {
    const file = join(real, "promptfoo/results-repeat2.json");
    const raw = JSON.parse(readFileSync(file, "utf8")).results.results as Json[];
    const selection = { metrics: ["hit5"] };
    const [kept] = await readSource(
      { files: [file], doc: "testCase.metadata.doc", trial: "repeat" },
      selection,
      { read: "tables" },
    );
    const [averaged] = await readSource(
      { files: [file], doc: "testCase.metadata.doc" },
      selection,
      { read: "tables" },
    );
    for (const system of ["bm25", "tfidf"]) {
      const cells = kept?.cells?.find((c) => c.system === system)?.cells as FacetCells;
      const mine = raw.filter((r) => r.provider.label === system);
      // testIdx 2k and 2k + 1 are test k's two repeats (README.md beside the file).
      const byTest = new Map<number, number[]>();
      for (const r of mine)
        byTest.set(r.testIdx >> 1, [...(byTest.get(r.testIdx >> 1) ?? []), r.namedScores.hit5]);
      expect(new Set(cells.n)).toEqual(new Set([2]));
      expect(triples(cellMap(cells).values())).toEqual(triples([...byTest.values()].map(summary)));
      const a = averaged?.table.groups.find((g) => g.system === system)?.stats;
      const k = kept?.table.groups.find((g) => g.system === system)?.stats;
      expect(k?.n).toEqual(a?.n);
      expect(k?.s).toEqual(a?.s);
    }
  });

  it("evalite trialCount 2 (the export): trials kept give cells of n = 2 per item, equal to the raw scores", async () => {
    const file = join(real, "evalite/evalite-output.json");
    const raw = JSON.parse(readFileSync(file, "utf8")).evals[0].results as Json[];
    const [kept] = await readSource(
      { files: [file], doc: "expected.article", trial: "trial" },
      { metrics: ["exact"] },
      { read: "tables" },
    );
    const cells = kept?.cells?.[0]?.cells as FacetCells;
    // An item is its position in the dataset: colOrder / 2 (trialCount 2).
    const byItem = new Map<number, number[]>();
    for (const r of raw) {
      const score = r.scores.find((s: Json) => s.name === "exact").score;
      byItem.set(r.colOrder >> 1, [...(byItem.get(r.colOrder >> 1) ?? []), score]);
    }
    expect(cells.n.length).toBe(30);
    expect(triples(cellMap(cells).values())).toEqual(triples([...byItem.values()].map(summary)));
  });

  it("a tool whose reader carries no trials (DeepEval) is refused, never left out", async () => {
    const file = join(real, "deepeval/test_run_sample.json");
    await expect(
      readSource({ files: [file], doc: "name", trial: "trial" }, {}, { read: "tables" }),
    ).rejects.toThrow(
      "test_run_sample.json: ragci reads no trial from deepeval output; leave out `trial`",
    );
  });
});

describe("promptfoo graders as judges (files promptfoo 0.123.1 wrote with three llm-rubric judges)", () => {
  const pf = join(real, "promptfoo");
  /** The table the provider answered from: "system/query" → document and reciprocal rank. */
  const table = readFileSync(join(pf, "retrieval.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [doc, query, system, , rr] = line.split(",");
      return { doc: doc as string, query: query as string, system, rr: Number(rr) };
    });
  const JUDGES = { "judge-top3": 3, "judge-top5": 5, "judge-top10": 10 } as const;
  /** A judge's verdict, recomputed from the table: the gold chunk ranks within its top N. */
  const verdict = (rr: number, within: number) => (rr > 0 && 1 / rr <= within + 1e-9 ? 1 : 0);
  /** "document|judge:value" of every grade, sorted: cells compared without query numbering. */
  const gradesOf = (cells: FacetCells) =>
    [...cellMap(cells)].map(([key, [, sum]]) => `${key.split("#")[0]}:${sum}`).sort();

  it("--judge grader: each grading provider is a judge; its grades are its verdicts on the rank", async () => {
    const file = join(pf, "results-judges.json");
    const [read] = await readSource(
      { files: [file], doc: "metadata.doc", judge: "grader" },
      { metrics: ["relevant"], systemColumn: "system", systems: ["bm25"] },
      { read: "tables" },
    );
    const cells = read?.cells?.[0]?.cells as FacetCells;
    expect([...(cells.labels.judges ?? [])].sort()).toEqual(Object.keys(JUDGES).sort());
    expect(new Set(cells.n)).toEqual(new Set([1]));
    const want = table
      .filter((r) => r.system === "bm25")
      .flatMap((r) =>
        Object.entries(JUDGES).map(([judge, n]) => `${r.doc}|${judge}:${verdict(r.rr, n)}`),
      )
      .sort();
    expect(gradesOf(cells)).toEqual(want);
    // The per-document path averages each query over its judges: promptfoo's own named score.
    const raw = JSON.parse(readFileSync(file, "utf8")).results.results as Json[];
    const named = raw
      .filter((r) => r.provider.label === "bm25")
      .reduce((t: number, r: Json) => t + r.namedScores.relevant, 0);
    const stats = read?.table.groups[0]?.stats;
    expect([...(stats?.s ?? [])].reduce((a, b) => a + b, 0)).toBeCloseTo(named, 12);
    expect(read?.table.notices.join("\n")).toContain(
      "each grading assertion is a judge (its grading provider's label, else its id, else its place and type), and a metric is the assertions' metric name (score without one): relevant (judge-top3, judge-top5, judge-top10)",
    );
  });

  it("grader errors (metadata.graderError) are left out and counted, or kept as failures", async () => {
    const file = join(pf, "results-judges-errors.json");
    const raw = JSON.parse(readFileSync(file, "utf8")).results.results as Json[];
    const failed = raw.flatMap((r: Json) =>
      r.gradingResult.componentResults.filter((c: Json) => c.metadata?.graderError === true),
    );
    expect(failed.length).toBe(10);
    const read = (errorsAsFailures: boolean) =>
      readSource(
        { files: [file], doc: "metadata.doc", judge: "grader", errorsAsFailures },
        { metrics: ["relevant"], systemColumn: "system", systems: ["bm25"] },
        { read: "tables" },
      );
    const [apart] = await read(false);
    const [kept] = await read(true);
    const bm25 = table.filter((r) => r.system === "bm25");
    // The top-5 judge failed on articles 650 and 1557 (the config's errorDocs).
    const down = (r: { doc: string }, judge: string) =>
      judge === "judge-top5" && (r.doc === "650" || r.doc === "1557");
    const want = (failures: boolean) =>
      bm25
        .flatMap((r) =>
          Object.entries(JUDGES)
            .filter(([judge]) => failures || !down(r, judge))
            .map(([judge, n]) => `${r.doc}|${judge}:${down(r, judge) ? 0 : verdict(r.rr, n)}`),
        )
        .sort();
    expect(gradesOf(apart?.cells?.[0]?.cells as FacetCells)).toEqual(want(false));
    expect(gradesOf(kept?.cells?.[0]?.cells as FacetCells)).toEqual(want(true));
    expect(apart?.table.notices.join("\n")).toContain(
      "promptfoo: 10 of 204 grades were grader errors (metadata.graderError: the grading provider failed and promptfoo recorded score 0), left out",
    );
  });

  it("refuses two graders of one metric it cannot tell apart (hand-edited copy of the real file)", async () => {
    const log = JSON.parse(readFileSync(join(pf, "results-judges.json"), "utf8"));
    for (const r of log.results.results)
      r.gradingResult.componentResults[1].assertion.provider.label = "judge-top3";
    const file = join(scratchDir(), "same-grader.json");
    writeFileSync(file, JSON.stringify(log));
    await expect(
      readSource(
        { files: [file], doc: "metadata.doc", judge: "grader" },
        { metrics: ["relevant"], systemColumn: "system", systems: ["bm25"] },
        { read: "tables" },
      ),
    ).rejects.toThrow(
      "same-grader.json: testIdx 0: two assertions of metric relevant are graded by judge-top3, which promptfoo averages",
    );
  });

  it("refuses a judge name promptfoo does not have, naming its own", async () => {
    await expect(
      readSource(
        { files: [join(pf, "results-judges.json")], doc: "metadata.doc", judge: "scorer" },
        { metrics: ["relevant"] },
        { read: "tables" },
      ),
    ).rejects.toThrow('promptfoo output has no judge "scorer"; its judge is `judge` grader');
  });
});
